import { parseArgs } from 'node:util';
import { HostMap } from './fetcher.cjs';
import { Scanner } from './scanner.cjs';

/** npm run scan -- <url> [--map-host HOST=http://127.0.0.1:PORT ...] [--timeout MS] */
async function main(): Promise<void> {
	let parsed;
	try {
		parsed = parseArgs({
			args: process.argv.slice(2),
			allowPositionals: true,
			options: {
				'map-host': { type: 'string', multiple: true },
				timeout: { type: 'string' },
				'tag-manager': { type: 'string' },
				help: { type: 'boolean' },
			},
		});
	} catch (error) {
		process.stderr.write(`Error: ${(error as Error).message}\n`);
		process.exit(2);
	}
	const { values, positionals } = parsed;
	if (values.help || positionals.length !== 1) {
		process.stderr.write(
			'Usage: npm run scan -- <url> [--map-host HOST=http://127.0.0.1:PORT ...] [--timeout MS] [--tag-manager ORIGIN]\n' +
				'  --map-host  send requests for HOST (or *.suffix) to a local origin instead of DNS; repeatable\n',
		);
		process.exit(values.help ? 0 : 2);
	}
	let hostMap: HostMap;
	try {
		hostMap = HostMap.parse(values['map-host'] ?? []);
	} catch (error) {
		process.stderr.write(`Error: ${(error as Error).message}\n`);
		process.exit(2);
	}
	const timeoutMs = values.timeout ? Number(values.timeout) : 10000;
	if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
		process.stderr.write('Error: --timeout must be a positive number of milliseconds\n');
		process.exit(2);
	}
	const scanner = new Scanner({ hostMap, timeoutMs, tagManagerOrigin: values['tag-manager'] });
	const result = await scanner.scan(positionals[0]);
	process.stdout.write(JSON.stringify(result, null, 2) + '\n');
	process.exit(0);
}

void main();
