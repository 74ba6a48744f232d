/** The request journal, live: every API request with its status and time; one opened shows its redacted query, body and answer. */
import { useState } from 'preact/hooks';
import { admin, type RequestSummary } from '../api.mjs';
import { count, when } from '../format.mjs';
import { html } from '../html.mjs';
import { VirtualTable } from '../virtual-table.mjs';

const statusClass = (status: number | null) =>
	status === null ? 'bad' : status >= 500 ? 'bad' : status >= 400 ? 'warn' : 'ok';

export function JournalPanel({ requests }: { requests: RequestSummary[] }) {
	const [opened, setOpened] = useState<
		{ id: number; entry?: unknown; error?: string } | undefined
	>();
	const open = async (id: number) => {
		setOpened({ id });
		try {
			const { requests: found } = await admin<{ requests: unknown[] }>(`/requests?id=${id}`);
			setOpened({
				id,
				entry: found[0] ?? 'This request has left the journal (it keeps the last --journal-size).',
			});
		} catch (error) {
			setOpened({ id, error: (error as Error).message });
		}
	};
	const newest = [...requests].reverse();
	return html`<section aria-labelledby="journal-title">
		<h2 id="journal-title">
			Requests <span class="muted">(${count(requests.length)}, newest first)</span>
		</h2>
		<${VirtualTable}
			label="Requests"
			rows=${newest}
			visibleRows=${14}
			empty="No API request yet."
			columns=${[
				{ title: 'When', width: '12rem', cell: (r: RequestSummary) => when(r.time) },
				{
					title: 'Request',
					width: '1fr',
					cell: (r: RequestSummary) =>
						html`<button type="button" class="link" onClick=${() => void open(r.id)}>
							${r.method} ${r.path}
						</button>`,
				},
				{
					title: 'Status',
					width: '5rem',
					cell: (r: RequestSummary) =>
						html`<span class=${statusClass(r.status)}>${r.status ?? 'dropped'}</span>`,
				},
				{ title: 'Took', width: '6rem', cell: (r: RequestSummary) => `${r.durationMs} ms` },
			]}
		/>
		${opened &&
		html`<div class="details" role="region" aria-label=${`Request ${opened.id}`}>
			<div class="details-head">
				<h3>Request ${opened.id}</h3>
				<button type="button" onClick=${() => setOpened(undefined)}>Close</button>
			</div>
			${opened.error
				? html`<p class="bad">${opened.error}</p>`
				: html`<pre tabindex="0">
${opened.entry === undefined ? 'Loading...' : JSON.stringify(opened.entry, null, 2)}</pre
					>`}
		</div>`}
	</section>`;
}
