import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isRunning } from './processes.cjs';

/*
 * Ports for programs that must be told theirs before they start (Dovecot, n8n, a container's
 * published port). A program that can be asked which port it got listens on port 0 instead.
 *
 * A port found free and closed again can be taken by anyone before its program binds it: the
 * kernel hands out port 0's picks from the ephemeral range (net.ipv4.ip_local_port_range,
 * 32768-60999 by default), and other test processes look for free ports too, also those of
 * another Jest run at the same time (.ci/run runs two lanes). So these come from below that
 * range, from a band of ports this process claimed (a file made only if it does not exist yet,
 * in a folder every test process shares), each handed out once, and checked free before it is.
 */
const FIRST = 20_000;
const BAND = 400;
const BANDS = 30; // 20000-31999
const CLAIMS = join(tmpdir(), 'lead-inbox-test-port-bands');
let band: number | undefined;
let handedOut = 0;

/** A band no running test process holds; given back when this process exits. */
function claimBand(): number {
	mkdirSync(CLAIMS, { recursive: true });
	for (let i = 0; i < BANDS; i++) {
		const candidate = (process.pid + i) % BANDS;
		const file = join(CLAIMS, String(candidate));
		for (let attempt = 0; attempt < 2; attempt++) {
			try {
				writeFileSync(file, String(process.pid), { flag: 'wx' });
				process.once('exit', () => rmSync(file, { force: true }));
				return candidate;
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
				// Held by a process that ended without giving it back (killed): taken over once. An
				// empty file is one being written.
				const owner = Number(readFileSync(file, 'utf8'));
				if (!(owner > 0) || isRunning(owner)) break;
				rmSync(file, { force: true });
			}
		}
	}
	throw new Error(`every port band is held by a running test process (${CLAIMS})`);
}

function canListen(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/** A loopback port nothing listens on, that no other test process will be handed. */
export async function freePort(): Promise<number> {
	band ??= claimBand();
	while (handedOut < BAND) {
		const port = FIRST + band * BAND + handedOut++;
		if (await canListen(port)) return port;
	}
	throw new Error(`no free port left in this process's band (${BAND} ports handed out)`);
}

function refuses(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		socket.once('connect', () => {
			socket.destroy();
			resolve(false);
		});
		socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
	});
}

/**
 * A loopback port that refuses connections, and stays so: a privileged port (below 1024) nothing
 * listens on. Nothing in the tests binds one, and the kernel never hands one out for port 0. From
 * the top down: fetch refuses to connect to some low ports (its "bad ports": 1, 7, 9, ...) itself.
 */
export async function closedPort(): Promise<number> {
	for (let port = 1023; port >= 1000; port--) if (await refuses(port)) return port;
	throw new Error('every privileged loopback port answers: no closed port to test with');
}

/** The port a server got (listening on port 0). */
export function portOf(server: net.Server): number {
	return (server.address() as net.AddressInfo).port;
}
