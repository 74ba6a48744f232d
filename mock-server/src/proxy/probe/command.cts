/**
 * `lead-inbox-mock-server probe` (`npm start -- probe` in a clone): the probe from the command
 * line. The API key comes from LEAD_INBOX_API_KEY only: a key on a command line stays in the
 * shell's history and the process list.
 */
import { parseArgs } from 'node:util';
import { FAIL_ON, type FailOn } from '../divergences/index.cjs';
import { runProbe } from './probe.cjs';

export const PROBE_USAGE = `Usage: lead-inbox-mock-server probe --leads URL --inboxes URL [--json] [--fail-on breaks-spec|open-point]
       (in a clone: npm start -- probe ...)

Sends a real account requests that charge nothing and can create nothing on any service (reads,
a wrong key, lead searches without niche and city, inbox creation without a body or with one
that is not JSON) and reports where the answers differ from the specs, as the proxy's divergence
report does.

  --leads URL       the lead search base URL (as the n8n credential's Lead Search Base URL)
  --inboxes URL     the inbox base URL, with /api/v1 (as the credential's Inbox Base URL)
  --creation-checks-pool POOL_ID
                    also send the creation checks: inbox entries without an email address, in
                    this pool of the account. By the specs they are refused, but a service more
                    lenient than the specs MAY CREATE ONE BLANK INBOX IN THIS POOL (the probe
                    stops at the first creation request accepted). Without it they are skipped.
  --json            print the report and the requests sent as JSON
  --fail-on CLASS   exit with status 3 when a divergence of CLASS or a worse one was seen
  --timeout MS      time limit of each request (default 30000)

The API key: the environment variable LEAD_INBOX_API_KEY (never a flag).
Exit status: 0 done, 1 a service could not be reached, 2 bad usage, 3 --fail-on met.`;

const fail = (message: string, status = 2): never => {
	process.stderr.write(`Error: ${message}\n\n${PROBE_USAGE}\n`);
	process.exit(status);
};

function baseUrl(name: string, value: string | undefined): string | undefined {
	if (value === undefined) return undefined;
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		return fail(
			`--${name} must be an http(s) URL such as https://api.example.com (got "${value}")`,
		);
	}
	if (!/^https?:$/.test(url.protocol)) fail(`--${name} must be an http(s) URL (got "${value}")`);
	return value.replace(/\/+$/, '');
}

export async function probeCommand(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
	let values;
	try {
		({ values } = parseArgs({
			args,
			options: {
				leads: { type: 'string' },
				inboxes: { type: 'string' },
				'creation-checks-pool': { type: 'string' },
				json: { type: 'boolean', default: false },
				'fail-on': { type: 'string' },
				timeout: { type: 'string', default: '30000' },
				help: { type: 'boolean', default: false },
			},
			strict: true,
		}));
	} catch (error) {
		const message = (error as Error).message;
		return fail(
			/key/i.test(message) ? `${message}. The key is read from LEAD_INBOX_API_KEY only.` : message,
		);
	}
	if (values.help) {
		process.stdout.write(`${PROBE_USAGE}\n`);
		return;
	}
	const leads = baseUrl('leads', values.leads);
	const inboxes = baseUrl('inboxes', values.inboxes);
	if (!leads && !inboxes) fail('give --leads and/or --inboxes: the services to probe');
	const apiKey = env.LEAD_INBOX_API_KEY?.trim();
	if (!apiKey)
		fail(
			'set LEAD_INBOX_API_KEY to the API key of the account to probe (export LEAD_INBOX_API_KEY=...)',
		);
	const failOn = values['fail-on'];
	if (failOn !== undefined && !(FAIL_ON as readonly string[]).includes(failOn))
		fail(`--fail-on must be one of ${FAIL_ON.join(', ')} (got "${failOn}")`);
	const timeoutMs = Number(values.timeout);
	if (!Number.isInteger(timeoutMs) || timeoutMs < 100)
		fail(
			`--timeout must be a whole number of milliseconds, at least 100 (got "${values.timeout}")`,
		);

	const creationPool = values['creation-checks-pool']?.trim();
	if (values['creation-checks-pool'] !== undefined && !creationPool)
		fail('--creation-checks-pool needs the ID of a pool of the account (GET /pools lists them)');
	if (creationPool && !inboxes) fail('--creation-checks-pool needs --inboxes');

	const { report, sent, unreachable, stoppedCreating, skipped } = await runProbe({
		leads,
		inboxes,
		apiKey: apiKey!,
		timeoutMs,
		creationPool,
	});
	if (values.json)
		process.stdout.write(
			`${JSON.stringify({ ...report.toJSON(), sent, skipped, ...(stoppedCreating ? { stoppedCreating } : {}) }, null, 2)}\n`,
		);
	else {
		const lines = sent.map(
			(s) => `  ${String(s.status).padEnd(4)} ${s.method.padEnd(4)} ${s.url}   (${s.purpose})`,
		);
		const what = creationPool
			? `that charge nothing, creating at most one blank inbox in pool ${creationPool} on a lenient service`
			: 'that charge nothing and can create nothing';
		process.stdout.write(
			`Sent ${sent.length} requests ${what}:\n${lines.join('\n')}\n${skipped.map((s) => `\n${s}\n`).join('')}${stoppedCreating ? `\nStopped creating: ${stoppedCreating}\n` : ''}\n${report.summary()}\n`,
		);
	}
	if (unreachable) {
		process.stderr.write(
			`Error: ${unreachable} request(s) got no answer: check the URLs and the network.\n`,
		);
		process.exit(1);
	}
	if (report.fails(failOn as FailOn | undefined)) {
		process.stderr.write(
			`Exit status 3: a divergence of class ${failOn} or worse was seen (--fail-on).\n`,
		);
		process.exit(3);
	}
}
