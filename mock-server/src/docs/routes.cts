import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { failure, success } from '../http/contract.cjs';
import { ApiError } from '../http/errors.cjs';

// swagger-ui-dist is the maintained renderer; its files are served locally (no CDN at run time).
// Resolved by path: requiring the package would load its whole bundle at start.
const UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));
const UI_FILES: Record<string, string> = {
	'swagger-ui.css': 'text/css; charset=utf-8',
	'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
	'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
	'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Lead Inbox reference server - API docs</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true });`;

const docs = (summary: string, answer: string) => ({
	tags: ['Docs'],
	security: [],
	summary,
	response: { 200: success(answer) },
});

/** The OpenAPI document and the page that renders it (no auth: it holds no account data). */
export const docsRoutes: FastifyPluginAsync = async (app) => {
	let document: string | undefined;
	app.get(
		'/openapi.json',
		{ schema: docs('This OpenAPI document', 'OpenAPI 3.1 JSON') },
		(_request, reply) => {
			document ??= JSON.stringify(app.swagger());
			return reply.type('application/json; charset=utf-8').send(document);
		},
	);
	app.get(
		'/docs',
		{ schema: docs('The API docs page (Swagger UI)', 'HTML page') },
		(_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE),
	);
	app.get(
		'/docs/init.js',
		{ schema: docs('Script of the docs page', 'JavaScript') },
		(_request, reply) => reply.type('application/javascript; charset=utf-8').send(INIT),
	);
	app.get(
		'/docs/:file',
		{
			schema: {
				...docs('Assets of the docs page (Swagger UI, served locally)', 'The asset'),
				params: z.object({ file: z.string() }),
				response: { 200: success('The asset'), 404: failure('No such asset.') },
			},
		},
		(request, reply) => {
			const { file } = request.params as { file: string };
			const type = UI_FILES[file];
			if (!type) throw new ApiError(404, `No docs asset named '${file}'.`);
			return reply
				.type(type)
				.header('Cache-Control', 'public, max-age=3600')
				.send(readFileSync(join(UI_DIR, file)));
		},
	);
};
