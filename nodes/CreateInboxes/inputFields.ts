import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/*
 * Created and Failed items keep the input item's fields, so a workflow can join each result back
 * to its row, but never a secret: n8n stores every item in its execution data and hands it to
 * every node downstream. A field goes when its name says it holds a secret, or when its value is
 * one of the item's passwords, whatever the column is called.
 */

const SECRET_NAME =
	/password|passwd|passphrase|secret|token|api[-_ ]?key|credential|^pass$|^pass[-_ A-Z]|[-_ ]pass$|[a-z]Pass$/i;

/** The item's passwords, as the node's parameters give them for it. */
export function secretsOf(ctx: IExecuteFunctions, i: number): string[] {
	const read = (name: string) => {
		try {
			return ctx.getNodeParameter(name, i, '') as unknown;
		} catch {
			return undefined;
		}
	};
	const extra = read('additionalFields') as IDataObject | undefined;
	return [read('imapPassword'), extra?.smtpPassword].filter(
		(value): value is string => typeof value === 'string' && value !== '',
	);
}

function clean(value: unknown, secrets: string[]): unknown {
	if (typeof value === 'string') return secrets.includes(value) ? undefined : value;
	if (Array.isArray(value))
		return value.map((v) => clean(v, secrets)).filter((v) => v !== undefined);
	if (value && typeof value === 'object') return withoutSecrets(value as IDataObject, secrets);
	return value;
}

/** The fields, at every depth, less those holding a secret. */
export function withoutSecrets(json: IDataObject, secrets: string[]): IDataObject {
	const kept: IDataObject = {};
	for (const [key, value] of Object.entries(json)) {
		if (SECRET_NAME.test(key)) continue;
		const cleaned = clean(value, secrets);
		if (cleaned !== undefined) kept[key] = cleaned as IDataObject[string];
	}
	return kept;
}
