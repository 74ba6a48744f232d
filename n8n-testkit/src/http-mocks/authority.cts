/**
 * A certificate authority made for one run of the runner, which only that run's n8n trusts
 * (NODE_EXTRA_CA_CERTS), and the certificates it signs for the hosts n8n's nodes call, one per
 * host, made when first asked. ECDSA P-256 throughout: keys made at once and signatures cheaper
 * than RSA-2048's.
 * Built on @peculiar/x509 (X.509 from WebCrypto keys); nothing of it leaves the run.
 */
import { randomBytes, webcrypto } from 'node:crypto';
import { isIP } from 'node:net';
import { createSecureContext, type SecureContext } from 'node:tls';
import * as x509 from '@peculiar/x509';

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' };
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' };
const DAY = 24 * 60 * 60 * 1000;

x509.cryptoProvider.set(webcrypto as never);

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

const pem = async (key: CryptoKey): Promise<string> =>
	x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');

/** A certificate's serial number: random, positive (a leading 01). */
const serial = (): string => `01${randomBytes(15).toString('hex')}`;

export class Authority {
	/** By host: its certificate's context, or the promise of it while it is made. */
	private readonly contexts = new Map<string, Promise<SecureContext>>();

	private constructor(
		private readonly keys: CryptoKeyPair,
		private readonly cert: x509.X509Certificate,
		/** One key for every host's certificate: made once, as each certificate is short-lived. */
		private readonly hostKeys: CryptoKeyPair,
		private readonly hostKeyPem: string,
	) {}

	static async create(commonName: string): Promise<Authority> {
		const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
		const now = Date.now();
		const cert = await x509.X509CertificateGenerator.createSelfSigned({
			serialNumber: serial(),
			name: `CN=${commonName}`,
			notBefore: new Date(now - DAY),
			notAfter: new Date(now + 30 * DAY),
			signingAlgorithm: SIGNING,
			keys,
			extensions: [
				new x509.BasicConstraintsExtension(true, 0, true),
				new x509.KeyUsagesExtension(
					x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign,
					true,
				),
				await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
			],
		});
		const hostKeys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
		return new Authority(keys, cert, hostKeys, await pem(hostKeys.privateKey));
	}

	/** The authority's certificate, as n8n is told to trust it. */
	get certPem(): string {
		return this.cert.toString('pem');
	}

	/** The TLS context for a host (a name or an IP address), its certificate made on first use. */
	contextFor(host: string): Promise<SecureContext> {
		let context = this.contexts.get(host);
		if (!context) {
			context = this.sign(host).then((cert) =>
				createSecureContext({ key: this.hostKeyPem, cert: `${cert}\n${this.certPem}\n` }),
			);
			this.contexts.set(host, context);
		}
		return context;
	}

	private async sign(host: string): Promise<string> {
		const now = Date.now();
		const cert = await x509.X509CertificateGenerator.create({
			serialNumber: serial(),
			subject: isIP(host) ? 'CN=test host' : `CN=${host}`,
			issuer: this.cert.subject,
			notBefore: new Date(now - DAY),
			notAfter: new Date(now + 30 * DAY),
			signingAlgorithm: SIGNING,
			publicKey: this.hostKeys.publicKey,
			signingKey: this.keys.privateKey,
			extensions: [
				new x509.BasicConstraintsExtension(false, undefined, true),
				new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
				new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth], false),
				new x509.SubjectAlternativeNameExtension(
					[{ type: isIP(host) ? 'ip' : 'dns', value: host }],
					false,
				),
				await x509.AuthorityKeyIdentifierExtension.create(this.keys.publicKey),
			],
		});
		return cert.toString('pem');
	}
}
