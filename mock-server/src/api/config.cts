/**
 * startMockServer's options read by the command line's own readers (core/config.cts), so a wrong
 * value gets the same check and message, naming the option as it was passed. The environment
 * (MOCK_*) is not read in-process.
 */
import {
	ConfigError,
	OPTIONS,
	type OptionName,
	readConfig,
	type ServerConfig,
} from '../core/config.cjs';
import type { Seed } from './admin-client.cjs';
import type { MockServerOptions } from './options.cjs';

/** In-process, a server is a test's own: a free port, a database in memory, no log lines. */
const IN_PROCESS_DEFAULTS: MockServerOptions = { port: 0, db: ':memory:', log: false };

/** An option's value as the command line writes it: on/off, comma-separated lists. */
function asText(value: unknown): string {
	if (typeof value === 'boolean') return value ? 'on' : 'off';
	return Array.isArray(value) ? value.join(',') : String(value);
}

const isOption = (name: string): name is OptionName => Object.hasOwn(OPTIONS, name);

/** The server's configuration for these options, checked as the command line checks them. */
export function configOf(options: MockServerOptions): { config: ServerConfig; seed?: Seed } {
	const given: Record<string, unknown> = { ...IN_PROCESS_DEFAULTS, ...options };
	const unknown = Object.keys(given).find((name) => !isOption(name));
	if (unknown)
		throw new ConfigError(
			`Unknown option '${unknown}'. The options are: ${Object.keys(OPTIONS).join(', ')}.`,
		);
	// A seed may be given as the seed itself: the server applies it; only a path is read as one.
	const seed =
		typeof given.seed === 'object' && given.seed !== null ? (given.seed as Seed) : undefined;
	const config = readConfig((name) => {
		const value = given[name];
		if (value === undefined || (name === 'seed' && seed)) return undefined;
		return { value: asText(value), source: `option ${name}` };
	});
	return { config, seed };
}
