import {
	createCipheriv,
	createDecipheriv,
	createHash,
	createHmac,
	randomBytes,
	timingSafeEqual,
} from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * One operator secret from which the server derives the mail-password encryption key and, when
 * the operator sets none, stable defaults for the admin token and the dev account's key. It comes
 * from --secret-key, or from `<db>.secret` (created once with mode 0600), or is random per process
 * for an in-memory database.
 */
export class Secrets {
	private readonly encryptionKey: Buffer;

	constructor(private readonly secret: Buffer) {
		this.encryptionKey = this.derive('mail-password-encryption');
	}

	static load(dbFile: string, configured?: string): Secrets {
		if (configured) return new Secrets(Buffer.from(configured, 'utf8'));
		if (dbFile === ':memory:') return new Secrets(randomBytes(32));
		const file = `${dbFile}.secret`;
		if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
		return new Secrets(Buffer.from(readFileSync(file, 'utf8').trim(), 'utf8'));
	}

	private derive(purpose: string): Buffer {
		return createHmac('sha256', this.secret).update(purpose).digest();
	}

	defaultAdminToken(): string {
		return `adm_${this.derive('admin-token').toString('base64url').slice(0, 32)}`;
	}

	defaultDevKey(): string {
		return `lik_dev_${this.derive('dev-key').toString('base64url').slice(0, 32)}`;
	}

	/** AES-256-GCM; output is iv.tag.ciphertext in base64url, so tampering is detected on read. */
	encrypt(plaintext: string): string {
		const iv = randomBytes(12);
		const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
		const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
		return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
	}

	decrypt(sealed: string): string {
		const [iv, tag, data] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
		const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, iv);
		decipher.setAuthTag(tag);
		return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
	}
}

/** API keys are high-entropy random strings, so a plain SHA-256 is the right at-rest hash. */
export function hashApiKey(key: string): string {
	return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function newApiKey(): string {
	return `lik_${randomBytes(30).toString('base64url')}`;
}

export function newId(prefix: string): string {
	return `${prefix}_${randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')}`;
}

/** Constant-time comparison of two secrets (or hashes); lengths are equalised by hashing only when they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
	const left = Buffer.from(a);
	const right = Buffer.from(b);
	if (left.length !== right.length) {
		timingSafeEqual(
			createHash('sha256').update(left).digest(),
			createHash('sha256').update(right).digest(),
		);
		return false;
	}
	return timingSafeEqual(left, right);
}
