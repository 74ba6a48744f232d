/**
 * The runner's end of n8n's clock (n8n-clock.cjs, loaded into n8n's processes): a loopback socket
 * each of n8n's processes connects to, and a file a process starting meanwhile reads first. A
 * change goes on only once every connected process has acknowledged it, so a run started after
 * `set` resolves reads the new time in every process.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';

/** What a process of n8n said when it last acknowledged. */
export interface ClockAck {
	pid: number;
	role: string;
	/** The process's Date.now() as it acknowledged. */
	now: number;
	/** Whether the Wait node's short waits were made to park in the database (main process). */
	waitNode: boolean;
	/** Whether n8n's WaitTracker was found, and whether it has started tracking. */
	waitTracker: boolean;
	tracking: boolean;
	resumed?: boolean | string;
	/** How many of the process's waiting requests it timed out (a mock that never answers). */
	timedOut?: number;
}

/** How long a process may take to acknowledge (a bound for a stuck n8n, not a speed claim). */
const ACK_MS = 60_000;

/** The preload's path, beside this module (sources) or in the built package's dist/. */
export const PRELOAD = join(__dirname, 'n8n-clock.cjs');

export class ClockControl {
	private offset = 0;
	private seq = 0;
	private readonly sockets = new Map<Socket, { acked: number; last?: ClockAck }>();
	private readonly waiters = new Set<() => void>();

	private constructor(
		private readonly server: Server,
		private readonly file: string,
		readonly port: number,
	) {}

	/** Listens on a free loopback port; the state file lives in `dir` (n8n's user folder). */
	static async start(dir: string): Promise<ClockControl> {
		if (!existsSync(PRELOAD)) throw new Error(`the runner's n8n clock is missing: ${PRELOAD}`);
		const server = createServer();
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(0, '127.0.0.1', resolve);
		});
		const { port } = server.address() as { port: number };
		const control = new ClockControl(server, join(dir, 'lead-inbox-clock.json'), port);
		control.writeFile();
		server.on('connection', (socket) => control.accept(socket));
		return control;
	}

	/**
	 * The environment telling the preload (loaded with `--require PRELOAD`) where the clock is: its
	 * socket, and the file a process starting meanwhile reads first.
	 */
	get n8nEnv(): Record<string, string> {
		return { LEAD_INBOX_CLOCK: JSON.stringify({ port: this.port, file: this.file }) };
	}

	/** The test's time now, in epoch milliseconds. */
	now(): number {
		return Date.now() + this.offset;
	}

	/** Every connected process's last acknowledgement. */
	get processes(): ClockAck[] {
		return [...this.sockets.values()].flatMap((s) => (s.last ? [s.last] : []));
	}

	/** Sets the test's time to `ms`, in every process of n8n, once each has acknowledged. */
	async set(ms: number): Promise<void> {
		this.offset = ms - Date.now();
		this.writeFile();
		await this.broadcast({ offset: this.offset });
	}

	/**
	 * Asks n8n's main process to resume the named waiting executions that are due by now (its
	 * WaitTracker polls the database, with their old timers cleared); false when n8n has no tracker.
	 */
	async resumeDue(executionIds: string[]): Promise<boolean> {
		const acks = await this.broadcast({ offset: this.offset, resume: executionIds }, 'main');
		const answer = acks.find((a) => a.resumed !== undefined)?.resumed;
		if (typeof answer === 'string') throw new Error(`n8n did not resume: ${answer}`);
		return answer === true;
	}

	/**
	 * Times out at once, in every process of n8n, the client requests waiting for the given
	 * request's answer, as their own time-outs would when it never comes (a mock's `never`): how
	 * many were found. None: the client set no time-out (it would wait forever).
	 */
	async timeOut(request: { method: string; url: string }): Promise<number> {
		const acks = await this.broadcast({ offset: this.offset, timeOut: request });
		return acks.reduce((sum, a) => sum + (a.timedOut ?? 0), 0);
	}

	/** Waits until a main process has connected (it connects while n8n starts). */
	async connected(role = 'main'): Promise<ClockAck> {
		await this.until(() => this.processes.some((p) => p.role === role), `n8n's ${role} process`);
		return this.processes.find((p) => p.role === role)!;
	}

	async close(): Promise<void> {
		for (const socket of this.sockets.keys()) socket.destroy();
		await new Promise((resolve) => this.server.close(resolve));
	}

	private writeFile(): void {
		writeFileSync(this.file, JSON.stringify({ offset: this.offset }));
	}

	private accept(socket: Socket): void {
		const entry: { acked: number; last?: ClockAck } = { acked: 0 };
		this.sockets.set(socket, entry);
		let pending = '';
		socket.on('data', (chunk) => {
			pending += chunk.toString();
			let end: number;
			while ((end = pending.indexOf('\n')) >= 0) {
				const ack = JSON.parse(pending.slice(0, end)) as ClockAck & { seq: number };
				pending = pending.slice(end + 1);
				entry.acked = Math.max(entry.acked, ack.seq);
				entry.last = ack;
				this.wake();
			}
		});
		const gone = () => {
			this.sockets.delete(socket);
			this.wake();
		};
		socket.on('close', gone);
		socket.on('error', gone);
		// A process that connects gets the clock as it is now.
		socket.write(`${JSON.stringify({ seq: ++this.seq, offset: this.offset })}\n`);
	}

	private wake(): void {
		for (const waiter of this.waiters) waiter();
	}

	/** Sends a message to every connected process (or those of one role) and waits for their acks. */
	private async broadcast(message: object, role?: string): Promise<ClockAck[]> {
		const seq = ++this.seq;
		const sent = [...this.sockets.entries()].filter(
			([, entry]) => role === undefined || entry.last?.role === role,
		);
		for (const [socket] of sent) socket.write(`${JSON.stringify({ ...message, seq })}\n`);
		await this.until(
			() => sent.every(([socket, entry]) => entry.acked >= seq || !this.sockets.has(socket)),
			`n8n's processes to take the clock`,
		);
		return sent.flatMap(([, entry]) => (entry.last ? [entry.last] : []));
	}

	private async until(done: () => boolean, what: string): Promise<void> {
		if (done()) return;
		await new Promise<void>((resolve, reject) => {
			const timer = setTimeout(() => {
				this.waiters.delete(check);
				reject(new Error(`timed out after ${ACK_MS} ms waiting for ${what}`));
			}, ACK_MS);
			const check = () => {
				if (!done()) return;
				clearTimeout(timer);
				this.waiters.delete(check);
				resolve();
			};
			this.waiters.add(check);
		});
	}
}
