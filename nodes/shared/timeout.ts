import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** The "Timeout (Seconds)" option of a node's Options collection. */
export function timeoutOption(defaultSeconds: number, what: string): INodeProperties {
	return {
		displayName: 'Timeout (Seconds)',
		name: 'timeoutSeconds',
		type: 'number',
		default: defaultSeconds,
		typeOptions: { minValue: 1, maxValue: 3600 },
		description: `How long to wait for ${what} before failing`,
	};
}

/** The option's value in milliseconds (the default when unset or invalid). */
export function timeoutMsFrom(
	options: { timeoutSeconds?: unknown },
	defaultSeconds: number,
): number {
	const seconds = Number(options.timeoutSeconds);
	return (Number.isFinite(seconds) && seconds > 0 ? seconds : defaultSeconds) * 1000;
}

/** The option's value in milliseconds, for item `i`. */
export function timeoutMsOf(ctx: IExecuteFunctions, i: number, defaultSeconds: number): number {
	return timeoutMsFrom(ctx.getNodeParameter('options', i, {}) as object, defaultSeconds);
}

export const TIMEOUT_HINT = 'Raise Options > Timeout (Seconds) if the service needs longer.';
