/**
 * startMockServer's options turned into flags and read by the command line's own parser, so a
 * wrong value gets the same message (naming the option) and no rule exists twice. The environment
 * (MOCK_*) is not read in-process.
 */
import { ConfigError, OPTIONS, parseConfig, type ServerConfig } from '../core/config.cjs';
import type { Seed } from './admin-client.cjs';
import { type MockServerOptions, OPTION_NAMES } from './options.cjs';

const IN_PROCESS_DEFAULTS: MockServerOptions = { port: 0, db: ':memory:', log: false };

const camelCase = (flag: string) => flag.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
const FLAGS = new Map(Object.values(OPTIONS).map(({ flag }) => [camelCase(flag), flag]));

/** An option's value as the command line writes it: on/off, comma-separated lists. */
function asFlagValue(value: unknown): string {
	if (typeof value === 'boolean') return value ? 'on' : 'off';
	return Array.isArray(value) ? value.join(',') : String(value);
}

/** The server's configuration for these options, checked by the command line's parser. */
export function configOf(options: MockServerOptions): { config: ServerConfig; seed?: Seed } {
	const { seed, ...rest } = { ...IN_PROCESS_DEFAULTS, ...options };
	const argv: string[] = [];
	for (const [name, value] of Object.entries(rest)) {
		const flag = FLAGS.get(name);
		if (!flag)
			throw new ConfigError(
				`Unknown option '${name}'. The options are: ${OPTION_NAMES.join(', ')}.`,
			);
		if (value === undefined) continue;
		argv.push(`--${flag}=${asFlagValue(value)}`);
	}
	if (typeof seed === 'string') argv.push(`--seed=${seed}`);
	// The error names the flag; in-process it is the option's name that was passed.
	try {
		const config = parseConfig(argv, {});
		// Only a --help flag reads as help, and no option becomes one.
		if (config === 'help') throw new ConfigError('help is not an option');
		return { config, seed: typeof seed === 'object' ? seed : undefined };
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error;
		throw new ConfigError(
			error.message.replace(/--([a-z-]+)/g, (whole, flag: string) =>
				FLAGS.get(camelCase(flag)) === flag ? `option ${camelCase(flag)}` : whole,
			),
		);
	}
}
