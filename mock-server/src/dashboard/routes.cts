/**
 * The dashboard: a page at /dashboard/ (and / leads there) that shows, live, what workflows did to
 * the service. The page and its two files hold no data: everything shown comes from the admin API,
 * read with the admin token the user signs in with. A strict CSP: this server's own script,
 * styles and API only.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { dashboardAssets } from './assets.cjs';

const CSP = [
	"default-src 'none'",
	"script-src 'self'",
	"style-src 'self'",
	"connect-src 'self'",
	"img-src 'self' data:",
	"base-uri 'none'",
	"form-action 'self'",
	"frame-ancestors 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lead Inbox reference server - dashboard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/dashboard/app.css">
</head>
<body>
<div id="app"><noscript>The dashboard needs JavaScript.</noscript></div>
<script src="/dashboard/app.js"></script>
</body>
</html>
`;

/** Every file of the dashboard goes out with the same guards. */
const secured = (reply: FastifyReply, type: string) =>
	reply
		.type(type)
		.header('content-security-policy', CSP)
		.header('x-content-type-options', 'nosniff')
		.header('x-frame-options', 'DENY')
		.header('referrer-policy', 'no-referrer')
		.header('cache-control', 'no-cache');

/** The page is not part of the API: left out of the OpenAPI document (README, "Dashboard", has it). */
const part = { schema: { hide: true } };

export const dashboardRoutes: FastifyPluginAsync = async (app) => {
	app.get('/', part, (_request, reply) => reply.redirect('/dashboard/', 302));
	app.get('/dashboard/', part, (_request, reply) =>
		secured(reply, 'text/html; charset=utf-8').send(PAGE),
	);
	app.get('/dashboard/app.js', part, async (_request, reply) =>
		secured(reply, 'text/javascript; charset=utf-8').send((await dashboardAssets()).js),
	);
	app.get('/dashboard/app.css', part, async (_request, reply) =>
		secured(reply, 'text/css; charset=utf-8').send((await dashboardAssets()).css),
	);
};
