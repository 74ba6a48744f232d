/**
 * The admin API as the page reads it: the token kept for this tab only (sessionStorage, never a
 * URL or a cookie), sent as a bearer token; the live stream read with fetch, which can send the
 * header (EventSource cannot).
 */
const TOKEN_KEY = 'lead-inbox-admin-token';

export const savedToken = () => sessionStorage.getItem(TOKEN_KEY) ?? '';
export const saveToken = (token: string) => sessionStorage.setItem(TOKEN_KEY, token);
export const forgetToken = () => sessionStorage.removeItem(TOKEN_KEY);

export class Unauthorized extends Error {}

export async function admin<T>(path: string, token = savedToken()): Promise<T> {
	const res = await fetch(`/__admin${path}`, {
		headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
		cache: 'no-store',
	});
	if (res.status === 401) throw new Unauthorized('The admin token was refused.');
	if (!res.ok) throw new Error(`GET /__admin${path} answered HTTP ${res.status}`);
	return (await res.json()) as T;
}

export interface RequestSummary {
	id: number;
	time: string;
	method: string;
	path: string;
	keyId: string | null;
	status: number | null;
	durationMs: number;
}

/**
 * Follows /__admin/events until `signal` aborts: calls `onRequests` with each batch of requests answered, and
 * `onState` with whether the stream is live. Reconnects after a pause when it breaks.
 */
export async function follow(
	onRequests: (batch: { requests: RequestSummary[]; dropped: number }) => void,
	onState: (live: boolean) => void,
	signal: AbortSignal,
): Promise<void> {
	while (!signal.aborted) {
		try {
			const res = await fetch('/__admin/events', {
				headers: { authorization: `Bearer ${savedToken()}`, accept: 'text/event-stream' },
				signal,
			});
			if (res.status === 401) throw new Unauthorized('The admin token was refused.');
			if (!res.ok || !res.body) throw new Error(`events: HTTP ${res.status}`);
			onState(true);
			const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
			let buffer = '';
			for (;;) {
				const { value, done } = await reader.read();
				if (done) break;
				buffer += value;
				let end: number;
				while ((end = buffer.indexOf('\n\n')) >= 0) {
					const block = buffer.slice(0, end);
					buffer = buffer.slice(end + 2);
					const data = /^data: (.*)$/m.exec(block)?.[1];
					if (/^event: requests$/m.test(block) && data)
						onRequests(JSON.parse(data) as { requests: RequestSummary[]; dropped: number });
				}
			}
		} catch (error) {
			if (signal.aborted || error instanceof Unauthorized) return;
		}
		onState(false);
		await new Promise((resolve) => setTimeout(resolve, 2000));
	}
}
