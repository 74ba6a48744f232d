/** Pools with their inboxes by status, and each API key's rolling hour of inbox creations. */
import { count, when } from '../format.mjs';
import { html } from '../html.mjs';
import type { Key, Pool } from '../types.mjs';

const STATUSES = ['active', 'paused', 'deactivated', 'error'] as const;

export function InboxesPanel({ pools, keys }: { pools: Pool[]; keys: Key[] }) {
	return html`<section aria-labelledby="pools-title">
			<h2 id="pools-title">Pools and inboxes</h2>
			${pools.length === 0
				? html`<p class="empty">No pool yet.</p>`
				: html`<table>
						<thead>
							<tr>
								<th scope="col">Pool</th>
								<th scope="col">Created</th>
								${STATUSES.map((s) => html`<th scope="col" class="num">${s}</th>`)}
							</tr>
						</thead>
						<tbody>
							${pools.map(
								(p) =>
									html`<tr>
										<th scope="row">${p.name} <code class="muted">${p.id}</code></th>
										<td>${when(p.createdAt)}</td>
										${STATUSES.map((s) => html`<td class="num">${count(p.inboxes[s])}</td>`)}
									</tr>`,
							)}
						</tbody>
					</table>`}
		</section>
		<section aria-labelledby="keys-title">
			<h2 id="keys-title">API keys and their hourly inbox window</h2>
			<ul class="keys">
				${keys.map(
					(k) =>
						html`<li>
							<code>${k.id}</code>
							<span class="muted">${k.permissions.join(', ') || 'no permission'}</span>
							<label class="window">
								<span
									>${count(k.hourlyWindow.used)} of ${count(k.hourlyWindow.limit)} inboxes created
									in the last
									hour${k.hourlyWindow.used > 0
										? `, frees up by ${when(k.hourlyWindow.resetsAt)}`
										: ''}</span
								>
								<meter
									min="0"
									max=${k.hourlyWindow.limit}
									value=${k.hourlyWindow.used}
									high=${k.hourlyWindow.limit * 0.9}
								></meter>
							</label>
						</li>`,
				)}
			</ul>
		</section>`;
}
