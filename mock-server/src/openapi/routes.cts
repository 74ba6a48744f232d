import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ApiError } from '../core/errors.cjs';
import { resource } from '../core/http.cjs';
import { buildOpenApiDocument } from './document.cjs';

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

export function registerDocsRoutes(app: FastifyInstance, serverUrl: () => string): void {
	let cached: string | undefined;
	resource(app, '/openapi.json', {
		GET: async (_request, reply) => {
			cached ??= JSON.stringify(buildOpenApiDocument(serverUrl()));
			return reply.type('application/json; charset=utf-8').send(cached);
		},
	});
	resource(app, '/docs', {
		GET: async (_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE),
	});
	resource(app, '/docs/init.js', {
		GET: async (_request, reply) => reply.type('application/javascript; charset=utf-8').send(INIT),
	});
	resource(app, '/docs/:file', {
		GET: async (request, reply) => {
			const file = (request.params as { file: string }).file;
			const type = UI_FILES[file];
			if (!type) throw new ApiError(404, `No docs asset named '${file}'.`);
			return reply
				.type(type)
				.header('Cache-Control', 'public, max-age=3600')
				.send(readFileSync(join(UI_DIR, file)));
		},
	});
}
