/**
 * Credentials for the nodes that run for real against mocks: one of each type the workflow's
 * nodes name, created in the test's n8n with the values the test file gives (by the credential's
 * name in the export) and the rest made up from the type's own fields, so no real secret is ever
 * needed. Their requests carry them to the mocks, which may check them (`headers.authorization`).
 */
import type { Rest } from '../n8n/rest.cjs';
import type { Workflow, WorkflowNode } from '../workflow/workflow.cjs';

/** A credential type as n8n describes it (its /types/credentials.json). */
interface CredentialType {
	name: string;
	extends?: string[];
	properties: {
		name: string;
		type: string;
		default?: unknown;
		typeOptions?: { password?: boolean };
	}[];
}

/** The credential a node of the export names, by type, with its name there. */
export interface CredentialUse {
	type: string;
	name: string;
}

/** A credential used, by type and export name. */
const key = (use: CredentialUse): string => `${use.type}\n${use.name}`;

/** The credentials the given nodes name (one per type and name). */
export function credentialUses(nodes: WorkflowNode[]): CredentialUse[] {
	const uses = new Map<string, CredentialUse>();
	for (const node of nodes)
		for (const [type, ref] of Object.entries(node.credentials ?? {})) {
			const name = (ref as { name?: string }).name ?? type;
			uses.set(key({ type, name }), { type, name });
		}
	return [...uses.values()];
}

/** A credential type and the types it extends, the farthest first (their fields come first). */
function lineageOf(type: string, types: Map<string, CredentialType>): CredentialType[] {
	const described = types.get(type);
	if (!described) return [];
	return [...(described.extends ?? []).flatMap((p) => lineageOf(p, types)), described];
}

/** The values of a credential's secret fields (passwords, tokens): masked wherever shown. */
export function secretsOf(
	type: string,
	types: Map<string, CredentialType>,
	data: Record<string, unknown>,
): string[] {
	const secret = lineageOf(type, types).flatMap((t) =>
		t.properties.filter((p) => p.typeOptions?.password).map((p) => p.name),
	);
	const token = data.oauthTokenData as Record<string, unknown> | undefined;
	return [...secret.map((name) => data[name]), token?.access_token, token?.refresh_token].filter(
		(v): v is string => typeof v === 'string' && v.length >= 4,
	);
}

/** A credential's fields, the given ones kept and the others made up from its type (and parents). */
export function madeUpData(
	type: string,
	types: Map<string, CredentialType>,
	given: Record<string, unknown> = {},
): Record<string, unknown> {
	const data: Record<string, unknown> = {};
	const lineage = lineageOf(type, types);
	for (const property of lineage.flatMap((t) => t.properties)) {
		if (property.type === 'notice') continue;
		data[property.name] =
			property.type === 'string' && !property.default
				? madeUpString(property.name, property.typeOptions?.password)
				: property.default;
	}
	// A token as if the sign-in had happened: no OAuth2 flow runs in a test.
	if (lineage.some((t) => t.name === 'oAuth2Api'))
		data.oauthTokenData = {
			access_token: 'test-access-token',
			refresh_token: 'test-refresh-token',
			token_type: 'Bearer',
			expires_in: 3600,
		};
	return { ...data, ...given };
}

/**
 * A made-up value for a text field: a URL where the field holds one (n8n refuses an OAuth2
 * credential whose URLs are not URLs; a request to it reaches the mocks), else a word naming it.
 */
const madeUpString = (name: string, secret?: boolean): string =>
	/url$/i.test(name)
		? `https://made-up.example.test/${name}`
		: secret
			? `test-secret-${name}`
			: `test-${name}`;

/** The credentials made for a test file's n8n, and the secrets in them (for masking). */
export interface MadeUpCredentials {
	/** By type and export name: the credential the adapted nodes point at. */
	created: Map<string, { id: string; name: string }>;
	secrets: string[];
}

/**
 * Creates the credentials in n8n: by type and export name, the credential the adapted nodes
 * point at. A type n8n does not know is said, naming the node's credential.
 */
export async function createCredentials(
	rest: Rest,
	uses: CredentialUse[],
	given: Record<string, Record<string, unknown>>,
	label: string,
): Promise<MadeUpCredentials> {
	const created = new Map<string, { id: string; name: string }>();
	const secrets: string[] = [];
	if (!uses.length) return { created, secrets };
	const listed = (await rest('GET', '/types/credentials.json')).body as CredentialType[];
	const types = new Map((Array.isArray(listed) ? listed : []).map((t) => [t.name, t]));
	for (const use of uses) {
		if (!types.has(use.type))
			throw new Error(
				`credential "${use.name}" is of type ${use.type}, which this n8n does not know: stub the nodes that use it`,
			);
		const name = `${use.name} (${label})`.slice(0, 128);
		const data = madeUpData(use.type, types, given[use.name]);
		secrets.push(...secretsOf(use.type, types, data));
		const answer = await rest('POST', '/credentials', { name, type: use.type, data });
		if (answer.status !== 200)
			throw new Error(
				`n8n refused a made-up ${use.type} credential for "${use.name}": ${JSON.stringify(answer.body).slice(0, 300)}`,
			);
		const id = String((answer.body as { data: { id: string } }).data.id);
		created.set(key(use), { id, name });
	}
	return { created, secrets };
}

/** Points a real node's credentials at the ones made for the test. */
export function useMadeUpCredentials(
	workflow: Workflow,
	real: (node: WorkflowNode) => boolean,
	made: Map<string, { id: string; name: string }>,
): void {
	for (const node of workflow.nodes) {
		if (!real(node) || !node.credentials) continue;
		for (const [type, ref] of Object.entries(node.credentials)) {
			const replacement = made.get(key({ type, name: (ref as { name?: string }).name ?? type }));
			if (replacement) node.credentials[type] = replacement;
		}
	}
}
