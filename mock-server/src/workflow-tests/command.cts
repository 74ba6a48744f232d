/**
 * `lead-inbox-mock-server test`: n8n-testkit's `test` command with the Lead Inbox service given,
 * and the server's own option, --replay (the service's answers from recordings of the real ones).
 * The same files, results and reports as n8n-testkit's bin with this package installed.
 */
import { testCommand } from '../../../n8n-testkit/src/index.cjs';
import { leadInboxService } from './service.cjs';

const REPLAY_USAGE =
	"  --replay DIR    the Lead Inbox service answers from recordings of the real services (the\n                  server's --replay)\n";

export async function leadInboxTestCommand(argv: string[]): Promise<number> {
	const rest: string[] = [];
	let replay: string | undefined;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--') {
			rest.push(...argv.slice(i));
			break;
		}
		if (arg === '--replay' || arg.startsWith('--replay=')) {
			replay = arg === '--replay' ? argv[++i] : arg.slice('--replay='.length);
			if (!replay) {
				process.stderr.write(
					"Error: --replay needs a folder of recordings (the server's --record)\n",
				);
				return 2;
			}
		} else rest.push(arg);
	}
	return await testCommand(rest, {
		program: 'lead-inbox-mock-server test',
		services: [leadInboxService({ replay })],
		usage: REPLAY_USAGE,
	});
}

/** For n8n-testkit's bin, which loads the services a project installed (package.json names this). */
export { leadInboxService as workflowTestService } from './service.cjs';
