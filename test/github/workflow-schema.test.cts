import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workflowErrors } from '../helpers/workflow-schema.cjs';

/** The repository's GitHub Actions workflows against GitHub's own workflow schema and parser. */
const DIR = join(__dirname, '..', '..', '.github', 'workflows');

describe('GitHub Actions workflow files', () => {
	it.each(readdirSync(DIR).filter((file) => file.endsWith('.yml')))(
		'%s is valid against the workflow schema',
		async (file) => {
			expect(await workflowErrors(join(DIR, file))).toEqual([]);
		},
	);

	it('the validator does reject what GitHub would', async () => {
		const file = join(mkdtempSync(join(tmpdir(), 'workflow-')), 'bad.yml');
		writeFileSync(file, 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    stepz: []\n');
		expect(await workflowErrors(file)).toEqual([
			"bad.yml (Line: 5, Col: 5): Unexpected value 'stepz'",
		]);
	});
});
