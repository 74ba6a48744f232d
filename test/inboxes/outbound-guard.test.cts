import type {
	ConnectionTester,
	MailEndpoint,
} from '../../mock-server/src/inboxes/connection-test.cjs';
import { isPublicAddress, OutboundGuard } from '../../mock-server/src/inboxes/outbound-guard.cjs';

const endpoint = (host: string, port: number): MailEndpoint => ({
	host,
	port,
	username: 'u',
	password: 'p',
});

/**
 * Records what it was asked to connect to, and how many tests ran at once. With `holdUntil`, the
 * first tests wait until that many run at once (however slowly a busy machine starts them), then
 * all end and later ones end at once: the peak is then exactly the limit when the guard keeps it.
 */
function recordingTester(holdUntil = 0) {
	const seen: MailEndpoint[][] = [];
	let running = 0;
	let peak = 0;
	let held: (() => void)[] | undefined = holdUntil > 0 ? [] : undefined;
	const tester: ConnectionTester = {
		async test(imap, smtp) {
			seen.push([imap, smtp]);
			peak = Math.max(peak, ++running);
			const queue = held;
			if (queue) {
				const waiting = new Promise<void>((resolve) => queue.push(resolve));
				if (running >= holdUntil) {
					held = undefined;
					for (const resolve of queue) resolve();
				}
				await waiting;
			}
			running--;
			return { ok: true };
		},
	};
	return { tester, seen, peak: () => peak };
}

describe('which addresses are public', () => {
	it.each([
		['127.0.0.1', false],
		['10.0.0.8', false],
		['172.20.1.1', false],
		['192.168.1.1', false],
		['169.254.169.254', false],
		['100.64.0.1', false],
		['0.0.0.0', false],
		['224.0.0.1', false],
		['255.255.255.255', false],
		['::1', false],
		['::', false],
		['fe80::1', false],
		['fd00:ec2::254', false],
		['::ffff:127.0.0.1', false],
		['::ffff:7f00:1', false],
		['64:ff9b::a00:1', false],
		['8.8.8.8', true],
		['142.250.27.108', true],
		['2a00:1450:400c:c0a::6c', true],
		['::ffff:8.8.8.8', true],
	])('%s is public: %s', (address, expected) => {
		expect(isPublicAddress(address)).toBe(expected);
	});
});

describe('the outbound guard', () => {
	const smtp = endpoint('smtp.example.com', 587);

	it('connects to the address it checked, not to a second lookup of the name', async () => {
		const { tester, seen } = recordingTester();
		const guard = new OutboundGuard(tester, [], async (host) =>
			host === 'imap.example.com' ? ['93.184.215.14'] : ['93.184.215.15'],
		);
		expect(await guard.test(endpoint('imap.example.com', 993), smtp, 'key_1')).toEqual({
			ok: true,
		});
		expect(seen[0][0]).toMatchObject({ host: 'imap.example.com', address: '93.184.215.14' });
		expect(seen[0][1]).toMatchObject({ host: 'smtp.example.com', address: '93.184.215.15' });
	});

	it('refuses a name when any of its addresses is private (DNS answering both)', async () => {
		const { tester, seen } = recordingTester();
		const guard = new OutboundGuard(tester, [], async () => ['93.184.215.14', '10.0.0.5']);
		const outcome = await guard.test(endpoint('rebind.example.com', 993), smtp, 'key_1');
		expect(outcome).toMatchObject({ ok: false, reason: 'not allowed' });
		expect(seen).toEqual([]);
	});

	it('lets the operator allow a local server by name or by address, on that port only', async () => {
		const { tester, seen } = recordingTester();
		const guard = new OutboundGuard(
			tester,
			[
				{ host: 'localhost', port: 3143 },
				{ host: '127.0.0.1', port: 3587 },
			],
			async () => ['127.0.0.1'],
		);
		expect(
			await guard.test(endpoint('localhost', 3143), endpoint('mail.local', 3587), 'k'),
		).toEqual({
			ok: true,
		});
		expect(seen).toHaveLength(1);
		const other = await guard.test(endpoint('localhost', 3144), endpoint('mail.local', 3587), 'k');
		expect(other).toMatchObject({ ok: false, reason: 'not allowed' });
	});

	it('says a name that does not resolve cannot be reached', async () => {
		const guard = new OutboundGuard(recordingTester().tester, [], async () => {
			throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
		});
		const outcome = await guard.test(endpoint('nowhere.example', 993), smtp, 'k');
		expect(outcome).toMatchObject({ ok: false, reason: 'cannot connect' });
	});

	it('runs at most 4 tests at once per key (as docs/api.md says), the rest wait their turn', async () => {
		const { tester, seen, peak } = recordingTester(4);
		const guard = new OutboundGuard(tester, [], async () => ['93.184.215.14']);
		const imap = endpoint('imap.example.com', 993);
		const outcomes = await Promise.all(
			Array.from({ length: 12 }, () => guard.test(imap, smtp, 'key_1')),
		);
		expect(outcomes.every((o) => o.ok)).toBe(true);
		expect(seen).toHaveLength(12);
		expect(peak()).toBe(4);
	});
});
