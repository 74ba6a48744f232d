import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { buildSync } from 'esbuild';

/*
 * GitHub Actions workflow files checked against GitHub's own workflow schema, with GitHub's own
 * parser (@actions/workflow-parser, the one behind GitHub's editor support). It ships as ES
 * modules importing its schema as JSON without import attributes, which Node 20 refuses: it is
 * bundled once (esbuild, inlining the schema) into CommonJS the tests can require.
 */

/** The parts of the parser used here. */
interface Parser {
	NoOperationTraceWriter: new () => unknown;
	parseWorkflow: (
		file: { name: string; content: string },
		trace: unknown,
	) => { context: ParseContext; value: unknown };
	convertWorkflowTemplate: (
		context: ParseContext,
		value: unknown,
	) => Promise<{ errors?: { Message: string }[] }>;
}
interface ParseContext {
	errors: { getErrors(): { message: string }[] };
}

let parser: Parser | undefined;
function load(): Parser {
	if (parser) return parser;
	const outfile = join(mkdtempSync(join(tmpdir(), 'workflow-parser-')), 'parser.cjs');
	buildSync({
		stdin: { contents: "export * from '@actions/workflow-parser';", resolveDir: __dirname },
		bundle: true,
		platform: 'node',
		format: 'cjs',
		outfile,
		logLevel: 'error',
	});
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- a bundle made at run time
	parser = require(outfile) as Parser;
	return parser;
}

/** The schema's and the template conversion's errors for a workflow file; none when it is valid. */
export async function workflowErrors(file: string): Promise<string[]> {
	const { NoOperationTraceWriter, convertWorkflowTemplate, parseWorkflow } = load();
	const result = parseWorkflow(
		{ name: basename(file), content: readFileSync(file, 'utf8') },
		new NoOperationTraceWriter(),
	);
	const errors = result.context.errors.getErrors().map((error) => error.message);
	if (result.value !== undefined) {
		const template = await convertWorkflowTemplate(result.context, result.value);
		for (const error of template.errors ?? []) errors.push(String(error.Message));
	}
	return [...new Set(errors)];
}
