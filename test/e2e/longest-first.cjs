/**
 * The e2e files in the order that ends the suite soonest with several side by side: the longest
 * first. Jest orders by the durations of earlier runs it keeps in its cache; a cold CI machine has
 * none, and Jest then orders by file size, which put the trigger file (the longest, mostly n8n's
 * minute polls) seventh of eleven, ending the suite alone. Without a cache, the order comes from
 * the seconds each file took in a cold .ci/run (n8n 2.40.7 with one older line); a file not listed
 * goes last. Only the order changes: every file runs.
 */
const { basename } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const COLD_RUN_SECONDS = {
	trigger: 876,
	'other-service': 711,
	examples: 655,
	'trigger-overlap': 539,
	'readme-first-hour': 502,
	'queue-mode': 396,
	'data-table-examples': 388,
	'ai-agent': 309,
	editor: 271,
	'credential-test': 161,
	'mock-server-package': 150,
};

class LongestFirst extends Sequencer {
	sort(tests) {
		const seconds = (test) => {
			const cached = this.time(test);
			return cached === undefined
				? (COLD_RUN_SECONDS[basename(test.path, '.e2e.cts')] ?? 0)
				: cached / 1000;
		};
		return [...tests].sort((a, b) => seconds(b) - seconds(a));
	}
}

module.exports = LongestFirst;
