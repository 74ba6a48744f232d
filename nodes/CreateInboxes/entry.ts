import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/*
 * The creation entry of one input item, read from the node's parameters for that item; a
 * problem that keeps it from being sent is found here, before anything is sent.
 */

const OPTIONAL_STRINGS = [
	'provider',
	'imapHost',
	'smtpHost',
	'imapUsername',
	'smtpUsername',
	'smtpPassword',
];
const OPTIONAL_NUMBERS = ['imapPort', 'smtpPort', 'dailySendingLimit'];

/** A parameter as text; an expression that resolves to nothing is empty, not "undefined". */
export function text(ctx: IExecuteFunctions, name: string, i: number): string {
	const value = ctx.getNodeParameter(name, i, '') as unknown;
	return value === undefined || value === null ? '' : String(value).trim();
}

/**
 * The creation entry of one item (empty optional fields are left out so the service detects
 * them), or the problem that keeps the item from being sent.
 */
export function entryOf(
	ctx: IExecuteFunctions,
	i: number,
): { entry: IDataObject; newPool: boolean } | { problem: string; emailAddress: string } {
	const emailAddress = text(ctx, 'emailAddress', i);
	const problem = (reason: string) => ({ problem: reason, emailAddress });
	if (!emailAddress)
		return problem(
			'Email Address is empty: map the address with an expression, e.g. {{ $json.email }}',
		);
	const entry: IDataObject = {
		emailAddress,
		imapPassword: String(ctx.getNodeParameter('imapPassword', i, '') ?? ''),
	};
	if (!entry.imapPassword) return problem('IMAP Password is empty');
	const newPool = ctx.getNodeParameter('poolMode', i) === 'new';
	if (!newPool) {
		const poolId = String(
			ctx.getNodeParameter('poolId', i, '', { extractValue: true }) ?? '',
		).trim();
		if (!poolId) return problem('Choose a pool, or set "Add Inboxes To" to "A New Pool"');
		entry.poolId = poolId;
	}
	const extra = ctx.getNodeParameter('additionalFields', i, {}) as IDataObject;
	for (const key of OPTIONAL_STRINGS)
		if (typeof extra[key] === 'string' && (extra[key] as string).trim() !== '')
			entry[key] = (extra[key] as string).trim();
	for (const key of OPTIONAL_NUMBERS) {
		if (extra[key] === undefined || extra[key] === '') continue;
		const value = Number(extra[key]);
		if (!Number.isInteger(value))
			return problem(`${key} must be a whole number (got ${extra[key]})`);
		entry[key] = value;
	}
	if (extra.skipConnectionTest === true) entry.skipConnectionTest = true;
	if (extra.acceptDomainAsTyped === true) entry.acceptDomainAsTyped = true;
	return { entry, newPool };
}
