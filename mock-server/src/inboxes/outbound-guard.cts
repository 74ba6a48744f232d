/**
 * What a real connection test may connect to (docs/api.md, "Connection tests"). Any API key can name
 * any host and port in an inbox entry, so without a guard the server would be a port scanner of its
 * own network: the answers differ by port state (refused at once, silent, no STARTTLS). The guard
 * allows only public addresses, after DNS resolution, on mail ports, and connects to the address it
 * checked (a second lookup could answer differently). A refused target gets one message, the same
 * whatever listens there, because nothing is ever sent to it. The operator allows a local test mail
 * server by name or address with --connection-test-allow.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { Limiter } from '../core/limiter.cjs';
import type { ConnectionTester, MailEndpoint, TestOutcome } from './connection-test.cjs';

export interface AllowedTarget {
	host: string;
	port: number;
}

/** The ports mail clients use; a test toward another port would only probe the network. */
const MAIL_PORTS = { IMAP: [143, 993], SMTP: [25, 465, 587, 2525] } as const;

/** Outbound tests in flight per API key; the others wait (a batch of 100 holds at most this many). */
export const TESTS_PER_KEY = 4;

/** Loopback, private, link-local (cloud metadata), shared, documentation, multicast, reserved. */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
	['0.0.0.0', 8],
	['10.0.0.0', 8],
	['100.64.0.0', 10],
	['127.0.0.0', 8],
	['169.254.0.0', 16],
	['172.16.0.0', 12],
	['192.0.0.0', 24],
	['192.0.2.0', 24],
	['192.168.0.0', 16],
	['198.18.0.0', 15],
	['198.51.100.0', 24],
	['203.0.113.0', 24],
	['224.0.0.0', 4],
	['240.0.0.0', 4],
] as const)
	NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
	['::', 128],
	['::1', 128],
	['100::', 64],
	['2001:db8::', 32],
	['fc00::', 7],
	['fe80::', 10],
	['ff00::', 8],
] as const)
	NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

/** IPv4 addresses written as IPv6 (`::ffff:127.0.0.1`, NAT64 `64:ff9b::7f00:1`) are their IPv4. */
function embeddedIpv4(address: string): string | undefined {
	const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
	if (dotted) return dotted[1];
	const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
	if (!hex) return undefined;
	const [high, low] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
	return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

export function isPublicAddress(address: string): boolean {
	const v4 = isIP(address) === 4 ? address : embeddedIpv4(address);
	if (v4) return !NOT_PUBLIC.check(v4, 'ipv4');
	return isIP(address) === 6 && !NOT_PUBLIC.check(address, 'ipv6');
}

type Resolve = (host: string) => Promise<string[]>;

const systemResolve: Resolve = async (host) =>
	(await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

function refused(side: 'IMAP' | 'SMTP', endpoint: MailEndpoint, why: string): TestOutcome {
	return {
		ok: false,
		reason: 'not allowed',
		message: `Connection test refused: the ${side} server ${endpoint.host}:${endpoint.port} ${why}. Use the mail provider's public ${side} host and port; the operator of this server can allow a local test mail server with --connection-test-allow HOST:PORT.`,
	};
}

export class OutboundGuard implements ConnectionTester {
	private readonly perKey = new Map<string, Limiter>();

	constructor(
		private readonly inner: ConnectionTester,
		private readonly allowed: AllowedTarget[],
		private readonly resolve: Resolve = systemResolve,
	) {}

	async test(imap: MailEndpoint, smtp: MailEndpoint, caller: string): Promise<TestOutcome> {
		const checked: MailEndpoint[] = [];
		for (const [side, endpoint] of [
			['IMAP', imap],
			['SMTP', smtp],
		] as const) {
			const outcome = await this.check(side, endpoint);
			if ('ok' in outcome) return outcome;
			checked.push(outcome);
		}
		const limiter = this.perKey.get(caller) ?? new Limiter(TESTS_PER_KEY);
		this.perKey.set(caller, limiter);
		try {
			return await limiter.run(() => this.inner.test(checked[0], checked[1], caller));
		} finally {
			if (limiter.idle) this.perKey.delete(caller);
		}
	}

	/** The endpoint pinned to the address that was checked, or the outcome that refuses it. */
	private async check(
		side: 'IMAP' | 'SMTP',
		endpoint: MailEndpoint,
	): Promise<MailEndpoint | TestOutcome> {
		const host = endpoint.host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
		const allows = (name: string) =>
			this.allowed.some((a) => a.host === name && a.port === endpoint.port);
		if (allows(host)) return endpoint;
		let addresses: string[];
		try {
			addresses = isIP(host) ? [host] : await this.resolve(host);
		} catch {
			return {
				ok: false,
				reason: 'cannot connect',
				message: `Connection test failed: cannot connect to the ${side} server ${endpoint.host}:${endpoint.port}: the host name does not resolve; check the host.`,
			};
		}
		// Every address must be allowed: a name that resolves to one public and one private address
		// could be reached on either. A local target is refused whatever its port, in one message.
		if (addresses.length === 0 || !addresses.every((a) => allows(a) || isPublicAddress(a)))
			return refused(side, endpoint, 'is on a local, private or reserved network address');
		if (
			!addresses.every(allows) &&
			!(MAIL_PORTS[side] as readonly number[]).includes(endpoint.port)
		)
			return refused(side, endpoint, `is not on a ${side} port (${MAIL_PORTS[side].join(', ')})`);
		return { ...endpoint, address: addresses[0] };
	}
}
