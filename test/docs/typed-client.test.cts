import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServer, type TestServer } from '../helpers/server.cjs';

const run = promisify(execFile);

/*
 * TypeScript users generate a client from /openapi.json: with openapi-typescript (its defaults) and
 * openapi-fetch, and with @hey-api/openapi-ts. The code a user writes first (an account, a search
 * with niche and city only, an entry with address and password only, a listing) must compile in
 * strict mode as written, and run. Outside the repository (n8n's lint reads every .ts in it),
 * with the project's node_modules linked in, as a user's project has its own.
 */
const ROOT = join(__dirname, '..', '..');
let DIR: string;
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

const USER_CODE = `
import createClient from 'openapi-fetch';
import type { paths } from './schema';

const [url, adminToken] = process.argv.slice(2);
const admin = createClient<paths>({ baseUrl: url, headers: { Authorization: \`Bearer \${adminToken}\` } });

const { data: account } = await admin.POST('/__admin/accounts', { body: {} });
if (!account) throw new Error('no account');
const api = createClient<paths>({ baseUrl: url, headers: { Authorization: \`Bearer \${account.apiKey}\` } });

const { data: leads } = await api.POST('/api/v1/niche-finder-leads', {
	body: { niche: 'dentist', city: 'Austin, TX' },
});
const { data: created } = await api.POST('/api/v1/inboxes', {
	body: { emailAddress: 'first@gmail.com', imapPassword: 'app-password' },
});
const { data: listing } = await api.GET('/api/v1/inboxes', { params: { query: { limit: 10 } } });
const firstContact: string | null | undefined = leads?.contacts[0]?.businessName;
console.log(
	JSON.stringify({
		keyId: account.keyId.startsWith('key_'),
		charged: leads?.chargedCredits,
		firstContact: typeof firstContact,
		created: created?.summary.created,
		listed: listing?.inboxes.map((inbox) => inbox.emailAddress),
		hasMore: listing?.pagination.hasMore,
	}),
);
`;

const HEY_USER_CODE = `
import type { AdminCreateAccount, InboxCreationEntry, LeadSearchRequest } from './hey/types.gen';

export const search: LeadSearchRequest = { niche: 'dentist', city: 'Austin, TX' };
export const entry: InboxCreationEntry = { emailAddress: 'first@gmail.com', imapPassword: 'app-password' };
export const account: AdminCreateAccount = {};
// null means omitted (docs/api.md), so a generated type takes it.
export const lenient: LeadSearchRequest = { niche: 'dentist', city: 'Austin', count: null };
`;

const TSCONFIG = {
	compilerOptions: {
		strict: true,
		noEmit: true,
		target: 'ES2022',
		// How most projects that generate a client build (Vite, esbuild, tsx): extensionless imports.
		module: 'ESNext',
		moduleResolution: 'Bundler',
		lib: ['ES2022', 'DOM'],
		types: ['node'],
	},
	include: ['*.mts', 'hey/**/*.ts'],
};

describe('a client generated from /openapi.json', () => {
	let server: TestServer;
	beforeAll(async () => {
		server = await startServer({ log: false });
		DIR = mkdtempSync(join(tmpdir(), 'typed-client-'));
		symlinkSync(join(ROOT, 'node_modules'), join(DIR, 'node_modules'), 'dir');
		writeFileSync(join(DIR, 'package.json'), '{"type": "module", "private": true}\n');
		const document = await (await fetch(`${server.url}/openapi.json`)).text();
		writeFileSync(join(DIR, 'openapi.json'), document);
		await run(bin('openapi-typescript'), [
			join(DIR, 'openapi.json'),
			'-o',
			join(DIR, 'schema.d.ts'),
		]);
		await run(process.execPath, [
			join(ROOT, 'node_modules', '@hey-api', 'openapi-ts', 'bin', 'run.js'),
			'-i',
			join(DIR, 'openapi.json'),
			'-o',
			join(DIR, 'hey'),
		]);
		writeFileSync(join(DIR, 'first-steps.mts'), USER_CODE);
		writeFileSync(join(DIR, 'hey-first-steps.mts'), HEY_USER_CODE);
		writeFileSync(join(DIR, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
	});
	afterAll(async () => {
		await server?.close();
		rmSync(DIR, { recursive: true, force: true });
	});

	it('types request fields with a default as optional, and optional fields as taking null (openapi-typescript)', () => {
		const types = readFileSync(join(DIR, 'schema.d.ts'), 'utf8');
		const shape = (name: string) =>
			new RegExp(`\\n {8}${name}: \\{([\\s\\S]*?)\\n {8}\\};`).exec(types)?.[1] ?? '';
		expect(shape('LeadSearchRequest')).toMatch(/\n\s+count\?: number \| null;/);
		expect(shape('LeadSearchRequest')).toMatch(/\n\s+niche: string;/);
		for (const field of ['dailySendingLimit', 'skipConnectionTest', 'acceptDomainAsTyped'])
			expect(shape('InboxCreationEntry')).toMatch(new RegExp(`\\n\\s+${field}\\?: `));
		expect(shape('AdminCreateAccount')).toMatch(/\n\s+active\?: boolean \| null;/);
		// Every admin answer is typed: the new account's key is a string, not unknown.
		expect(shape('AdminCreatedAccount')).toMatch(/\n\s+apiKey: string;/);
	});

	it('compiles the code a user writes first, in strict mode, with both generators', async () => {
		const compiled = await run(bin('tsc'), ['-p', join(DIR, 'tsconfig.json')]).catch(
			(error: Error & { stdout?: string }) => ({ stdout: error.stdout ?? error.message }),
		);
		expect(compiled.stdout).toBe('');
	});

	it('runs it against the server', async () => {
		const { stdout } = await run(bin('tsx'), [
			join(DIR, 'first-steps.mts'),
			server.url,
			server.adminToken,
		]);
		const result = JSON.parse(stdout);
		// A search of niche and city only asks for the default count, 100 (some share an email).
		expect(result.charged).toBeGreaterThan(90);
		expect(result).toEqual({
			keyId: true,
			charged: expect.any(Number),
			firstContact: 'string',
			created: 1,
			listed: ['first@gmail.com'],
			hasMore: false,
		});
	});
});
