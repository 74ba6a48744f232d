import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { returnMemoryWhenIdle } from '../../mock-server/src/core/idle-memory.cjs';
import { WAIT_MS, waitUntil } from '../helpers/wait.cjs';

/**
 * The server gives its memory back once idle: one memory-reducing collection after a quiet
 * period with nothing in flight, none while a request is answered, none again until the next
 * request. Here `gc` is a recorder in place of V8's, and the quiet period is short.
 */
const QUIET_MS = 100;

describe('returning memory when idle', () => {
	const realGc = (globalThis as { gc?: unknown }).gc;
	let collections: object[];
	let app: FastifyInstance;
	let url: string;
	let release: (() => void) | undefined;

	beforeEach(async () => {
		collections = [];
		release = undefined;
		(globalThis as { gc?: unknown }).gc = (options: object) => collections.push(options);
		app = Fastify();
		returnMemoryWhenIdle(app, QUIET_MS);
		app.get('/quick', async () => ({ ok: true }));
		// Answered only when the test says so.
		app.get('/slow', () => new Promise((resolve) => (release = () => resolve({ ok: true }))));
		await app.listen({ port: 0, host: '127.0.0.1' });
		url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
	});

	afterEach(async () => {
		await app.close();
		(globalThis as { gc?: unknown }).gc = realGc;
	});

	/** A quiet period and then some: what did not happen by then does not happen. */
	const severalQuietPeriods = () => new Promise((resolve) => setTimeout(resolve, 4 * QUIET_MS));

	it('collects once after start-up, with V8 asked to reduce memory, then not again while nothing happens', async () => {
		await waitUntil(() => collections.length === 1, WAIT_MS, 'the collection after start-up');
		expect(collections[0]).toEqual({ type: 'major', execution: 'sync', flavor: 'last-resort' });
		await severalQuietPeriods();
		expect(collections).toHaveLength(1);
	});

	it('collects again after requests, once they end and the quiet period passes', async () => {
		await waitUntil(() => collections.length === 1, WAIT_MS, 'the collection after start-up');
		for (let i = 0; i < 3; i++) expect((await fetch(`${url}/quick`)).status).toBe(200);
		await waitUntil(() => collections.length === 2, WAIT_MS, 'the collection after the requests');
		await severalQuietPeriods();
		expect(collections).toHaveLength(2);
	});

	it('never collects while a request is in flight, however long it takes', async () => {
		await waitUntil(() => collections.length === 1, WAIT_MS, 'the collection after start-up');
		const answer = fetch(`${url}/slow`);
		await waitUntil(() => release !== undefined, WAIT_MS, 'the slow request to arrive');
		// Other requests come and go meanwhile: their quiet periods pass with one still in flight.
		expect((await fetch(`${url}/quick`)).status).toBe(200);
		await severalQuietPeriods();
		expect(collections).toHaveLength(1);
		release!();
		expect((await answer).status).toBe(200);
		await waitUntil(() => collections.length === 2, WAIT_MS, 'the collection once it ended');
	});

	it('counts a request its client abandoned as ended', async () => {
		await waitUntil(() => collections.length === 1, WAIT_MS, 'the collection after start-up');
		const abandoned = new AbortController();
		const answer = fetch(`${url}/slow`, { signal: abandoned.signal }).catch(() => 'abandoned');
		await waitUntil(() => release !== undefined, WAIT_MS, 'the slow request to arrive');
		abandoned.abort();
		expect(await answer).toBe('abandoned');
		await waitUntil(
			() => collections.length === 2,
			WAIT_MS,
			'the collection after the abandoned request',
		);
	});

	it('works unchanged in a process without gc exposed (the in-process API in its host)', async () => {
		const bare = Fastify();
		(globalThis as { gc?: unknown }).gc = undefined;
		returnMemoryWhenIdle(bare, QUIET_MS);
		bare.get('/', async () => ({ ok: true }));
		await bare.listen({ port: 0, host: '127.0.0.1' });
		const port = (bare.server.address() as AddressInfo).port;
		expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
		await bare.close();
	});
});
