import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { lazy } from '../core/lazy.cjs';

// The mail clients are needed only for real connection tests (--connection-test real).
const imapflow = lazy(() => require('imapflow') as typeof import('imapflow'));
const nodemailer = lazy(() => require('nodemailer') as typeof import('nodemailer'));

/**
 * The IMAP/SMTP connection test of an inbox entry. Security by port (docs/api.md): 993 and 465
 * are implicit TLS, any other port must upgrade with STARTTLS before authenticating, so a password
 * never crosses a connection without TLS. Certificates are always verified; the operator may add
 * a private CA. Messages name the failing side and reason, never a password.
 */
export interface MailEndpoint {
	host: string;
	port: number;
	username: string;
	password: string;
	/** The address `host` resolved to, when checked (outbound-guard.cts): connect here, verify `host`. */
	address?: string;
}

export type FailureReason =
	| 'authentication refused'
	| 'cannot connect'
	| 'TLS'
	| 'time-out'
	| 'not allowed';

/** What a connection that was tried can end with. */
type NetworkReason = Exclude<FailureReason, 'not allowed'>;

export type TestOutcome = { ok: true } | { ok: false; reason: FailureReason; message: string };

export interface ConnectionTester {
	/** `caller` is the id of the API key asking (outbound tests are limited per key). */
	test(imap: MailEndpoint, smtp: MailEndpoint, caller: string): Promise<TestOutcome>;
}

/** A failed test, in words that say what to check (also the OpenAPI document's 422 example). */
export function failure(
	side: 'IMAP' | 'SMTP',
	endpoint: Pick<MailEndpoint, 'host' | 'port'>,
	reason: NetworkReason,
	why?: string,
): TestOutcome & { ok: false } {
	const where = `${endpoint.host}:${endpoint.port}`;
	const text: Record<typeof reason, string> = {
		'authentication refused': `${side} authentication refused by ${where}: check the user name and (app) password`,
		'cannot connect': `cannot connect to the ${side} server ${where}: check host and port`,
		TLS: `TLS failed with the ${side} server ${where}${why ? ` (${why})` : ''}: the server needs a valid certificate, and ports other than 993/465 must offer STARTTLS`,
		'time-out': `the ${side} server ${where} did not answer in time`,
	};
	return { ok: false, reason, message: `Connection test failed: ${text[reason]}.` };
}

/** Deterministic, network-free outcome for demos (documented in the README and OpenAPI). */
export class SimulatedConnectionTester implements ConnectionTester {
	async test(imap: MailEndpoint, smtp: MailEndpoint): Promise<TestOutcome> {
		for (const [side, endpoint] of [
			['IMAP', imap],
			['SMTP', smtp],
		] as const) {
			if (endpoint.host.toLowerCase().endsWith('.invalid'))
				return failure(side, endpoint, 'cannot connect');
		}
		for (const [side, endpoint] of [
			['IMAP', imap],
			['SMTP', smtp],
		] as const) {
			if (endpoint.password.startsWith('invalid'))
				return failure(side, endpoint, 'authentication refused');
		}
		return { ok: true };
	}
}

const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|EPROTO|ERR_SSL|HOSTNAME|ALTNAME/i;

function classify(error: unknown): { reason: NetworkReason; why?: string } {
	const e = error as {
		code?: string;
		authenticationFailed?: boolean;
		tlsFailed?: boolean;
		message?: string;
		responseCode?: number;
		cause?: { code?: string };
	};
	const code = `${e.code ?? ''} ${e.cause?.code ?? ''}`;
	const message = e.message ?? '';
	if (e.authenticationFailed || /EAUTH/.test(code) || e.responseCode === 535)
		return { reason: 'authentication refused' };
	if (
		e.tlsFailed ||
		/ETLS/.test(code) ||
		TLS_CODES.test(code) ||
		/STARTTLS|certificate|TLS|SSL/i.test(message)
	) {
		return {
			reason: 'TLS',
			why: /STARTTLS/i.test(message)
				? 'no STARTTLS offered'
				: /certificate|CERT|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(message + code)
					? 'certificate not trusted'
					: undefined,
		};
	}
	if (/ETIMEDOUT|TIMEOUT/i.test(code) || /time(d)? ?out/i.test(message))
		return { reason: 'time-out' };
	return { reason: 'cannot connect' };
}

export class RealConnectionTester implements ConnectionTester {
	private readonly ca?: Buffer;

	constructor(options: { caFile?: string; timeoutMs?: number } = {}) {
		this.ca = options.caFile ? readFileSync(options.caFile) : undefined;
		this.timeoutMs = options.timeoutMs ?? 10000;
	}

	private readonly timeoutMs: number;

	async test(imap: MailEndpoint, smtp: MailEndpoint): Promise<TestOutcome> {
		const [imapOutcome, smtpOutcome] = await Promise.all([
			this.testImap(imap),
			this.testSmtp(smtp),
		]);
		return imapOutcome.ok ? smtpOutcome : imapOutcome;
	}

	private tls() {
		return {
			rejectUnauthorized: true,
			minVersion: 'TLSv1.2' as const,
			...(this.ca ? { ca: this.ca } : {}),
		};
	}

	/** Where to connect (the checked address when there is one) and the name the certificate must carry. */
	private static target(endpoint: MailEndpoint) {
		return {
			host: endpoint.address ?? endpoint.host,
			port: endpoint.port,
			...(isIP(endpoint.host) ? {} : { servername: endpoint.host }),
		};
	}

	private async testImap(endpoint: MailEndpoint): Promise<TestOutcome> {
		const implicit = endpoint.port === 993;
		const client = new (imapflow().ImapFlow)({
			...RealConnectionTester.target(endpoint),
			secure: implicit,
			doSTARTTLS: implicit ? undefined : true,
			auth: { user: endpoint.username, pass: endpoint.password },
			tls: this.tls(),
			logger: false,
			connectionTimeout: this.timeoutMs,
			greetingTimeout: this.timeoutMs,
			socketTimeout: this.timeoutMs,
			disableAutoIdle: true,
		});
		client.on('error', () => undefined);
		try {
			await client.connect();
			await client.logout().catch(() => undefined);
			return { ok: true };
		} catch (error) {
			client.close();
			const { reason, why } = classify(error);
			return failure('IMAP', endpoint, reason, why);
		}
	}

	private async testSmtp(endpoint: MailEndpoint): Promise<TestOutcome> {
		const implicit = endpoint.port === 465;
		const transport = nodemailer().createTransport({
			...RealConnectionTester.target(endpoint),
			secure: implicit,
			requireTLS: !implicit,
			auth: { user: endpoint.username, pass: endpoint.password },
			tls: this.tls(),
			connectionTimeout: this.timeoutMs,
			greetingTimeout: this.timeoutMs,
			socketTimeout: this.timeoutMs,
			logger: false,
		});
		try {
			await transport.verify();
			return { ok: true };
		} catch (error) {
			const { reason, why } = classify(error);
			return failure('SMTP', endpoint, reason, why);
		} finally {
			transport.close();
		}
	}
}
