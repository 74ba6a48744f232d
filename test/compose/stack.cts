import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { AdminClient } from '../../mock-server/src/api/admin-client.cjs';
import { CACHE as E2E_CACHE } from '../e2e/n8n-app.cjs';
import { signInOwner } from '../helpers/n8n-rest.cjs';
import { PODMAN_LIMITS, podman } from '../helpers/podman.cjs';
import { freePort } from '../helpers/ports.cjs';
import { waitUntil } from '../helpers/wait.cjs';

/*
 * A compose stack run as a user runs it, under podman-compose: from a fresh copy of this work
 * tree, with the compose file unchanged. What differs from `docker compose up -d` on a user's
 * machine is passed on podman-compose's command line only: runc and explicit limits (this
 * machine's cgroups), builds on the host's network (the npm registry) and in Docker's format
 * (HEALTHCHECK kept), the local Node base in place of node:22-bookworm-slim, and the installed n8n
 * app mounted read-only at /opt/n8n-app, where the local stand-in for n8n's image runs it from
 * (test/compose/official-images/n8n.Containerfile; mounted into every container of the stack,
 * since podman-compose passes its run arguments to all, and used by the n8n ones only).
 */

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const BASE = process.env.IMAGE_TEST_BASE ?? '';

/**
 * The n8n version the compose files build on when N8N_VERSION is not set: the newest release that
 * installs from the registry the suite reaches (2.41 does not; check again with each release).
 */
export const N8N_VERSION = '2.40.7';

/**
 * The n8n lines the compose stacks are proven on: the default (run without N8N_VERSION, as a user
 * runs `docker compose up`) and 2.8.4 (set as a user sets it), each on local stand-ins of its own
 * official image (test/compose/official-images.sh builds both).
 */
export const COMPOSE_VERSIONS = [N8N_VERSION, '2.8.4'];

/** The compose settings that choose this n8n version (none for the default). */
export const versionSettings = (version: string): Record<string, string> =>
	version === N8N_VERSION ? {} : { N8N_VERSION: version };

/** The owner account the tests set up in n8n. */
export const OWNER = { email: 'owner@lead-inbox.test', password: 'Lead-Inbox-compose-1' };

/** The keys and the credential compose.yaml gives the server and n8n when nothing is set. */
export const DEMO = {
	devKey: 'lik_compose_demo_key_0001',
	adminToken: 'adm_compose-demo-token-0001',
	credentialId: 'leadInboxCompose',
	credentialName: 'Lead Inbox (reference server)',
};

/** An example workflow as a user sets it up: its Lead Inbox nodes on the credential compose imported. */
export function onComposeCredential(workflow: any): any {
	for (const node of workflow.nodes)
		if (node.credentials?.leadInboxApi)
			node.credentials.leadInboxApi = { id: DEMO.credentialId, name: DEMO.credentialName };
	return workflow;
}

/** A copy of the work tree as a clone has it: tracked and new files, nothing ignored. */
export function freshClone(): string {
	const dir = mkdtempSync(join(tmpdir(), 'lead-inbox-clone-'));
	const files = execFileSync(
		'git',
		['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
		{
			cwd: ROOT,
			encoding: 'utf8',
		},
	)
		.split('\0')
		.filter(Boolean);
	for (const file of files) {
		mkdirSync(join(dir, dirname(file)), { recursive: true });
		try {
			cpSync(join(ROOT, file), join(dir, file));
		} catch (error) {
			// A file deleted in the work tree but not yet in git's index is not in a clone either.
			if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
		}
	}
	return dir;
}

export interface ComposeResult {
	code: number;
	output: string;
}

export class ComposeStack {
	readonly project = `li${process.pid}${Math.random().toString(36).slice(2, 6)}`;
	readonly env: Record<string, string>;

	private constructor(
		readonly dir: string,
		readonly file: string,
		readonly ports: { n8n: number; server: number },
		extraEnv: Record<string, string>,
	) {
		this.env = {
			...(process.env as Record<string, string>),
			N8N_PORT: String(ports.n8n),
			LEAD_INBOX_PORT: String(ports.server),
			NODE_IMAGE: BASE,
			...extraEnv,
		};
	}

	/** A stack of `file` (compose.yaml or compose.queue.yaml) in a fresh clone, on free ports. */
	static async create(file: string, env: Record<string, string> = {}): Promise<ComposeStack> {
		if (!BASE) throw new Error('IMAGE_TEST_BASE is not set: run this through npm run test:compose');
		const ports = { n8n: await freePort(), server: await freePort() };
		return new ComposeStack(freshClone(), file, ports, env);
	}

	get n8nUrl() {
		return `http://127.0.0.1:${this.ports.n8n}`;
	}
	get serverUrl() {
		return `http://127.0.0.1:${this.ports.server}`;
	}

	/**
	 * The n8n app of this stack's version, mounted where the stand-in for n8n's image runs it. None
	 * for a version not installed (a test of a version that does not exist): the build fails first.
	 */
	private get appMount(): string {
		const app = join(E2E_CACHE, `n8n-${this.env.N8N_VERSION ?? N8N_VERSION}`);
		return existsSync(join(app, '.installed')) ? `-v '${app}:/opt/n8n-app:ro'` : '';
	}

	/** podman-compose with the given arguments; never throws: the exit code and output are returned. */
	async compose(...args: string[]): Promise<ComposeResult> {
		const limits = PODMAN_LIMITS.join(' ');
		try {
			const { stdout, stderr } = await run(
				'podman-compose',
				[
					'-p',
					this.project,
					'-f',
					join(this.dir, this.file),
					'--podman-args',
					'--runtime runc',
					'--podman-build-args',
					`--format docker --network host ${limits}`,
					'--podman-run-args',
					`${limits} ${this.appMount}`,
					...args,
				],
				{ cwd: this.dir, env: this.env, maxBuffer: 256 * 1024 * 1024 },
			);
			return { code: 0, output: stdout + stderr };
		} catch (error) {
			const e = error as { code?: number; stdout?: string; stderr?: string };
			return { code: e.code ?? 1, output: (e.stdout ?? '') + (e.stderr ?? '') };
		}
	}

	/** `up -d` (building what is missing), failing with podman-compose's output when it fails. */
	async up(...args: string[]): Promise<string> {
		const result = await this.compose('up', '-d', ...args);
		if (result.code !== 0)
			throw new Error(`up failed (${result.code}):\n${result.output.slice(-6000)}`);
		return result.output;
	}

	container(service: string, index = 1) {
		return `${this.project}_${service}_${index}`;
	}

	/** The container's state as podman tells it: running, exited, ... ('' when there is none). */
	async state(container: string): Promise<string> {
		return podman('inspect', '--format', '{{.State.Status}}', container).catch(() => '');
	}

	async logs(container: string): Promise<string> {
		const { stdout, stderr } = await run('podman', ['logs', container], {
			maxBuffer: 64 * 1024 * 1024,
		});
		return stdout + stderr;
	}

	/**
	 * Waits until the container's health check passes. podman runs health checks from systemd
	 * timers, which a machine without systemd lacks: the check is run here instead, as the timer
	 * would. A container that stops meanwhile fails the wait with its log.
	 */
	async healthy(container: string, withinMs = 4 * 60_000): Promise<void> {
		await waitUntil(
			async () => {
				const state = await this.state(container);
				if (state === 'exited' || state === 'stopped')
					throw new Error(
						`${container} stopped before it was healthy:\n${(await this.logs(container)).slice(-4000)}`,
					);
				return podman('healthcheck', 'run', container).then(
					() => true,
					() => false,
				);
			},
			withinMs,
			`${container} to be healthy`,
			1000,
		);
	}

	/**
	 * Removes the tag of the n8n image this stack's settings name (the image itself stays while
	 * another tag or container uses it): the next `up` is a first one for it.
	 */
	async untagN8nImage(): Promise<void> {
		const image = `localhost/n8n-lead-inbox:${this.env.N8N_VERSION ?? N8N_VERSION}`;
		await podman('untag', image).catch(() => undefined);
	}

	/** The reference server's admin API, with the token compose.yaml gives it. */
	get admin(): AdminClient {
		return new AdminClient(this.serverUrl, DEMO.adminToken);
	}

	/** The dev account compose.yaml's server makes (the demo key's). */
	async devAccount() {
		const [dev] = await this.admin.accounts.list();
		return dev;
	}

	/** n8n's REST API, signed in as the stack's owner (set up on the first call). */
	async n8nSession() {
		return await signInOwner(this.n8nUrl, OWNER);
	}

	/** Takes the stack down with its volumes and removes the clone. */
	async remove(): Promise<void> {
		await this.compose('down', '-v');
		rmSync(this.dir, { recursive: true, force: true });
	}
}
