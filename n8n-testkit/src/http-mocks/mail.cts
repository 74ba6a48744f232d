/**
 * An email a node hands to an API as a whole message (Gmail's `raw`: RFC 822, base64url), read
 * back so a test checks what it says, not its encoding: `mail.to`, `mail.subject`, `mail.text`.
 */

export interface Mail {
	from?: string;
	to?: string;
	cc?: string;
	bcc?: string;
	replyTo?: string;
	subject?: string;
	/** Threading headers, as a reply sets them. */
	inReplyTo?: string;
	references?: string;
	/** The text of a single-part message (decoded); a multipart message's whole body. */
	text: string;
}

/** The email in a request's body, or undefined when it holds none. */
export function mailIn(body: unknown): Mail | undefined {
	const raw = (body as { raw?: unknown } | undefined)?.raw;
	if (typeof raw !== 'string' || !/^[\w+/=-]+$/.test(raw)) return undefined;
	const message = Buffer.from(raw, 'base64url').toString('utf8');
	const split = message.search(/\r?\n\r?\n/);
	if (split < 0) return undefined;
	const headers = new Map<string, string>();
	// Folded lines continue the header before them.
	for (const line of message
		.slice(0, split)
		.replace(/\r?\n[ \t]+/g, ' ')
		.split(/\r?\n/)) {
		const colon = line.indexOf(':');
		if (colon > 0)
			headers.set(line.slice(0, colon).trim().toLowerCase(), words(line.slice(colon + 1).trim()));
	}
	if (!headers.has('to') && !headers.has('subject')) return undefined;
	const content = message.slice(split).replace(/^\r?\n\r?\n/, '');
	const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
	const fields = {
		from: 'from',
		to: 'to',
		cc: 'cc',
		bcc: 'bcc',
		replyTo: 'reply-to',
		subject: 'subject',
		inReplyTo: 'in-reply-to',
		references: 'references',
	} as const;
	const mail: Partial<Mail> = {};
	for (const [key, header] of Object.entries(fields)) {
		const value = headers.get(header);
		if (value) mail[key as keyof typeof fields] = value;
	}
	mail.text =
		encoding === 'base64'
			? Buffer.from(content, 'base64').toString('utf8')
			: encoding === 'quoted-printable'
				? quotedPrintable(content)
				: content;
	return mail as Mail;
}

/** RFC 2047 encoded words (=?UTF-8?B?...?= and =?UTF-8?Q?...?=) decoded. */
const words = (value: string): string =>
	value
		.replace(/\?=\s+=\?/g, '?==?')
		.replace(
			/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g,
			(_, _charset: string, kind: string, text: string) =>
				kind.toUpperCase() === 'B'
					? Buffer.from(text, 'base64').toString('utf8')
					: quotedPrintable(text.replace(/_/g, ' ')),
		);

const quotedPrintable = (text: string): string =>
	Buffer.from(
		text
			.replace(/=\r?\n/g, '')
			.replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
		'latin1',
	).toString('utf8');
