import { outputNameMisfits } from '../../n8n-testkit/src/file/output-names.cjs';
import type { TestFile } from '../../n8n-testkit/src/file/schema.cjs';
import { resolveOutput } from '../../n8n-testkit/src/workflow/outputs.cjs';
import type { Workflow } from '../../n8n-testkit/src/workflow/workflow.cjs';

/**
 * A Switch's outputs named as the editor shows them: its rules renamed (Output Key), the others by
 * index, the extra fallback output ("Fallback", or as renamed), numbered in expression mode. Read
 * from the node's parameters, before any n8n starts (no description needed).
 */
const rule = (outputKey?: string) => ({
	conditions: { conditions: [], combinator: 'and' },
	...(outputKey ? { renameOutput: true, outputKey } : {}),
});
const switchNode = (parameters: Record<string, unknown>, typeVersion = 3.2) => ({
	id: 's1',
	name: 'Answer',
	type: 'n8n-nodes-base.switch',
	typeVersion,
	position: [0, 0],
	parameters,
});
const approval = switchNode({
	rules: { values: [rule('Approved'), rule('Declined'), rule()] },
	options: { fallbackOutput: 'extra', renameFallbackOutput: 'No answer' },
});

describe("a Switch's outputs by the names the editor shows", () => {
	it('resolves renamed rules, an unnamed rule by its index and the renamed fallback, in any case', () => {
		expect(resolveOutput(approval, undefined, 'Approved')).toBe(0);
		expect(resolveOutput(approval, undefined, 'declined')).toBe(1);
		expect(resolveOutput(approval, undefined, '2')).toBe(2);
		expect(resolveOutput(approval, undefined, 'No answer')).toBe(3);
		expect(resolveOutput(approval, undefined, 'Fallback')).toBeUndefined();
		const plainFallback = switchNode({
			rules: { values: [rule('Hot')] },
			options: { fallbackOutput: 'extra' },
		});
		expect(resolveOutput(plainFallback, undefined, 'Fallback')).toBe(1);
		// Expression mode numbers its outputs; a Switch before version 3 has no names to read.
		const byExpression = switchNode({ mode: 'expression', numberOutputs: 3 });
		expect(resolveOutput(byExpression, undefined, '2')).toBe(2);
		expect(resolveOutput(switchNode({}, 2), undefined, 'Approved')).toBeUndefined();
	});

	it('names a wrong output before n8n starts, listing the names the Switch has', () => {
		const workflow = {
			name: 'Approvals',
			nodes: [approval],
			connections: {},
		} as unknown as Workflow;
		const spec = {
			workflow: 'approvals.json',
			cases: [
				{
					name: 'a case',
					expect: {
						nodes: {
							Answer: [
								{ output: 'Declined', items: 1 },
								{ output: 'No answer', items: 0 },
								{ output: 'Maybe' },
							],
						},
					},
				},
			],
		} as unknown as TestFile;
		expect(outputNameMisfits(spec, workflow, [], () => undefined)).toEqual([
			{
				at: ['cases', 0, 'expect', 'nodes', 'Answer', 2, 'output'],
				message:
					'node "Answer" has no output named "Maybe": its outputs are "Approved", "Declined", "2", "No answer" (or an index from 0)',
			},
		]);
	});
});
