import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { RUNS_FROM_BUNDLE } from '../core/helpers.cjs';
import { type Answer, content, failure } from '../http/contract.cjs';
import { ApiError } from '../http/errors.cjs';
import uiFiles from './swagger-ui-files.json';

// swagger-ui-dist is the maintained renderer; its files are served locally (no CDN at run time).
// The built package carries the few it serves in dist/docs (build.cjs copies them): swagger-ui-dist
// itself depends on a package with an install script, which npm 12 would list as blocked in every
// project that installs the server. From the sources, they are read from the package, resolved by
// path (requiring it would load its whole bundle at start).
const UI_DIR = RUNS_FROM_BUNDLE
	? join(__dirname, 'docs')
	: dirname(require.resolve('swagger-ui-dist/package.json'));
/** The files the page loads, by their content type; build.cjs copies these into dist/docs. */
const UI_FILES: Record<string, string> = uiFiles;

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

/** An asset of the page, in its own media type. */
const ASSET = content('The asset, by its type', [
	...new Set(Object.values(UI_FILES).map((type) => type.split(';')[0])),
]);

/** A docs operation: no auth (it holds no account data), its name, words and answer. */
const docs = (operationId: string, summary: string, description: string, answer: Answer) => ({
	tags: ['Docs'],
	security: [],
	operationId,
	summary,
	description,
	response: { 200: answer },
});

/** The OpenAPI document and the page that renders it (no auth: it holds no account data). */
export const docsRoutes: FastifyPluginAsync = async (app) => {
	let document: string | undefined;
	app.get(
		'/openapi.json',
		{
			schema: docs(
				'getOpenApiDocument',
				'This OpenAPI document',
				'OpenAPI 3.1, generated from the validation schemas the server checks requests with.',
				content('The document', ['application/json']),
			),
		},
		(_request, reply) => {
			document ??= JSON.stringify(app.swagger());
			return reply.type('application/json; charset=utf-8').send(document);
		},
	);
	app.get(
		'/docs',
		{
			schema: docs(
				'getDocsPage',
				'The API docs page',
				'This document rendered by Swagger UI, every file served by the server itself (nothing from a CDN).',
				content('HTML page', ['text/html']),
			),
		},
		(_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE),
	);
	app.get(
		'/docs/init.js',
		{
			schema: docs(
				'getDocsScript',
				'Script of the docs page',
				'Starts Swagger UI on /openapi.json.',
				content('JavaScript', ['application/javascript']),
			),
		},
		(_request, reply) => reply.type('application/javascript; charset=utf-8').send(INIT),
	);
	app.get(
		'/docs/:file',
		{
			schema: {
				...docs(
					'getDocsAsset',
					'Assets of the docs page',
					`Swagger UI's own files, served locally: ${Object.keys(UI_FILES).join(', ')}.`,
					ASSET,
				),
				// Documented as the list it is; another name is answered 404 (not a validation 400).
				params: z.object({ file: z.string().meta({ enum: Object.keys(UI_FILES) }) }),
				response: {
					200: ASSET,
					404: failure('No such asset.', noSuchAsset('swagger-ui.min.css').toBody()),
				},
			},
		},
		(request, reply) => {
			const { file } = request.params as { file: string };
			const type = UI_FILES[file];
			if (!type) throw noSuchAsset(file);
			return reply
				.type(type)
				.header('Cache-Control', 'public, max-age=3600')
				.send(readFileSync(join(UI_DIR, file)));
		},
	);
};

/** The 404 of an asset the page does not have (also the document's example of it). */
function noSuchAsset(file: string): ApiError {
	return new ApiError(404, `No docs asset named '${file}'.`);
}
