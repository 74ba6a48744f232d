import { execFile } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServer, type TestServer } from '../helpers/server.cjs';
import { withTempDir } from '../helpers/temp-dir.cjs';

/*
 * The OpenAPI document as tools that trust it read it: Redocly's recommended rules and Spectral's
 * spectral:oas at 0 warnings (Redocly's named exceptions are in mock-server/openapi-lint/), every
 * operation named and described, and every route answering in the media type it declares.
 */

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'node_modules', '.bin');

let server: TestServer;
let document: any;
beforeAll(async () => {
	server = await startServer();
	document = (await server.call('GET', '/openapi.json', { key: null })).body;
});
afterAll(async () => await server.close());

/** Runs a linter on the document beside the project's lint configuration; its JSON output. */
async function lint(command: string, args: string[]): Promise<any> {
	return await withTempDir('openapi-lint-', async (dir) => {
		cpSync(join(ROOT, 'mock-server', 'openapi-lint'), dir, { recursive: true });
		writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document));
		const result = await run(join(BIN, command), args, { cwd: dir, maxBuffer: 64 * 1024 * 1024 })
			// Both exit non-zero when they report a problem: the output says which.
			.catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
		return JSON.parse(result.stdout.slice(result.stdout.search(/^[[{]/m)));
	});
}

describe('the OpenAPI document', () => {
	it("has no problem by Redocly's recommended rules (named exceptions aside)", async () => {
		const report = await lint('redocly', ['lint', 'openapi.json', '--format=json']);
		const problems = report.problems.filter((p: { ignored?: boolean }) => !p.ignored);
		expect(
			problems.map((p: { ruleId: string; message: string }) => `${p.ruleId}: ${p.message}`),
		).toEqual([]);
	});

	it("has no problem by Spectral's spectral:oas rules", async () => {
		const results = await lint('spectral', [
			'lint',
			'openapi.json',
			'-r',
			'.spectral.yaml',
			'-f',
			'json',
			'--quiet',
		]);
		expect(
			results.map((r: { code: string; path: string[] }) => `${r.code} at ${r.path.join('.')}`),
		).toEqual([]);
	});

	it('names and describes every operation, each name once', () => {
		const operations = Object.values(document.paths).flatMap((item: any) =>
			Object.values(item),
		) as any[];
		expect(operations.filter((op) => !op.operationId || !op.description || !op.summary)).toEqual(
			[],
		);
		const ids = operations.map((op) => op.operationId);
		expect(new Set(ids).size).toBe(ids.length);
	});

	it('declares for each docs route the media type it serves, and a 404 example of its own', async () => {
		const declared = (path: string) =>
			Object.keys(document.paths[path].get.responses['200'].content);
		const served = async (path: string) =>
			(await fetch(`${server.url}${path}`)).headers.get('content-type')!.split(';')[0];
		for (const [path, route] of [
			['/openapi.json', '/openapi.json'],
			['/docs', '/docs'],
			['/docs/init.js', '/docs/init.js'],
		])
			expect([path, declared(path)]).toEqual([path, [await served(route)]]);
		const assets = declared('/docs/{file}');
		for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png'])
			expect(assets).toContain(await served(`/docs/${file}`));
		const missing = await fetch(`${server.url}/docs/swagger-ui.min.css`);
		expect(
			document.paths['/docs/{file}'].get.responses['404'].content['application/json'].example,
		).toEqual(await missing.json());
	});
});
