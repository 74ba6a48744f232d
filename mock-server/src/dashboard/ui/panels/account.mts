/** One account: its balance over time (the ledger), its searches and its contacts. */
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import { admin } from '../api.mjs';
import { count, flag, signed, when } from '../format.mjs';
import { html } from '../html.mjs';
import type { Account, Contact, LedgerEntry, Scan, Search } from '../types.mjs';
import { VirtualTable } from '../virtual-table.mjs';

const KIND: Record<LedgerEntry['kind'], string> = {
	opening: 'opening balance',
	grant: 'granted',
	set: 'set by admin',
	charge: 'charged by a search',
};

function BalanceChart({ entries }: { entries: LedgerEntry[] }) {
	const box = useRef<HTMLDivElement>(null);
	useEffect(() => {
		const element = box.current;
		if (!element || entries.length === 0) return undefined;
		// A canvas knows no CSS variables: the theme's colours, read as they stand.
		const style = getComputedStyle(element);
		const color = (name: string) => style.getPropertyValue(name).trim();
		const axis = {
			stroke: style.color,
			grid: { stroke: color('--grid') },
			ticks: { stroke: color('--grid') },
		};
		// The balance holds until now: the last step runs to the right edge.
		const x = [...entries.map((e) => Date.parse(e.at) / 1000), Date.now() / 1000];
		const y = [...entries.map((e) => e.balance), entries[entries.length - 1].balance];
		const plot = new uPlot(
			{
				width: element.clientWidth,
				height: 180,
				scales: { x: { time: true } },
				series: [
					{},
					{
						label: 'Credits',
						stroke: color('--accent'),
						width: 2,
						paths: uPlot.paths.stepped?.({ align: 1 }),
					},
				],
				axes: [axis, { ...axis, size: 70 }],
				legend: { show: false },
			},
			[x, y],
			element,
		);
		return () => plot.destroy();
	}, [entries]);
	return html`<div
		class="chart"
		ref=${box}
		role="img"
		aria-label=${`Credit balance over time: ${entries.length} changes, now ${entries.at(-1)?.balance ?? 0}`}
	></div>`;
}

const filters = (r: Search['request']) =>
	[
		r.metaAds !== undefined && `Meta ${r.metaAds ? 'yes' : 'no'}`,
		r.tiktokPixel !== undefined && `TikTok ${r.tiktokPixel ? 'yes' : 'no'}`,
		r.gAnalytics !== undefined && `Analytics ${r.gAnalytics ? 'yes' : 'no'}`,
	]
		.filter(Boolean)
		.join(', ') || 'none';

const KIND_NAME: Record<string, string> = {
	metaPixel: 'Meta pixel',
	tiktokPixel: 'TikTok pixel',
	googleAnalytics: 'Google Analytics',
};

/** Where each tracking code of one website was found: the scan run again, read-only, with its findings. */
function WhereFound({ website, onClose }: { website: string; onClose: () => void }) {
	const [scan, setScan] = useState<{ result?: Scan; error?: string }>({});
	useEffect(() => {
		admin<Scan>(`/scan?url=${encodeURIComponent(website)}`).then(
			(result) => setScan({ result }),
			(error: Error) => setScan({ error: error.message }),
		);
	}, [website]);
	const { result, error } = scan;
	return html`<div
		class="details"
		role="region"
		aria-label=${`Where the codes of ${website} were found`}
	>
		<div class="details-head">
			<h3>Where the codes of <code>${website}</code> were found</h3>
			<button type="button" onClick=${onClose}>Close</button>
		</div>
		${error
			? html`<p class="bad">${error}</p>`
			: !result
				? html`<p class="muted">Scanning...</p>`
				: !result.scanned
					? html`<p>Not scanned: ${result.reason}</p>`
					: html`${result.incomplete
								? html`<p class="bad">
										Read in part: ${result.incomplete}. The codes not found below are unknown
										(null), not absent: the unread container may hold them.
									</p>`
								: null}
							<table>
								<thead>
									<tr>
										<th scope="col">Code</th>
										<th scope="col">Id</th>
										<th scope="col">Where</th>
										<th scope="col">Seen as</th>
									</tr>
								</thead>
								<tbody>
									${result.findings.length === 0
										? html`<tr>
												<td colspan="4" class="muted">
													${result.incomplete
														? 'No tracking code in what could be read.'
														: 'No tracking code on this website.'}
												</td>
											</tr>`
										: result.findings.map(
												(f) =>
													html`<tr>
														<td>${KIND_NAME[f.kind] ?? f.kind}</td>
														<td><code>${f.id ?? '–'}</code></td>
														<td>${f.where}</td>
														<td>${f.evidence}</td>
													</tr>`,
											)}
								</tbody>
							</table>
							${result.containers.length > 0 &&
							html`<p class="muted">
								Tag-manager containers loaded:${' '}
								${result.containers
									.map((c) => `${c.id}${c.loaded ? '' : ` (not loaded: ${c.reason})`}`)
									.join(', ')}
							</p>`}`}
	</div>`;
}

export function AccountPanel(props: {
	account: Account;
	ledger: LedgerEntry[];
	searches: Search[];
	contacts: Contact[];
}) {
	const { account, ledger, searches, contacts } = props;
	const [where, setWhere] = useState<string>();
	return html`<section aria-labelledby="account-title">
			<h2 id="account-title">
				Account <code>${account.id}</code>${account.dev
					? html` <span class="badge">dev</span>`
					: ''}
			</h2>
			<dl class="figures">
				<div>
					<dt>Credits available</dt>
					<dd data-testid="credits">${count(account.credits)}</dd>
				</div>
				<div>
					<dt>Contacts</dt>
					<dd data-testid="contact-count">${count(account.contactCount)}</dd>
				</div>
				<div>
					<dt>Charged in all</dt>
					<dd>${count(searches.reduce((s, x) => s + x.charged, 0))}</dd>
				</div>
				<div>
					<dt>Subscription</dt>
					<dd>${account.active ? 'active' : 'inactive'}</dd>
				</div>
			</dl>
			<h3>Credit ledger</h3>
			<${BalanceChart} entries=${ledger} />
			<${VirtualTable}
				label="Credit ledger"
				rows=${[...ledger].reverse()}
				visibleRows=${6}
				empty="No change of the balance yet."
				columns=${[
					{ title: 'When', width: '13rem', cell: (e: LedgerEntry) => when(e.at) },
					{ title: 'What', width: '1fr', cell: (e: LedgerEntry) => KIND[e.kind] },
					{ title: 'Change', width: '7rem', cell: (e: LedgerEntry) => signed(e.delta) },
					{ title: 'Balance', width: '7rem', cell: (e: LedgerEntry) => count(e.balance) },
				]}
			/>
		</section>
		<section aria-labelledby="searches-title">
			<h2 id="searches-title">Lead searches</h2>
			<${VirtualTable}
				label="Lead searches"
				rows=${searches}
				visibleRows=${8}
				empty="No lead search has saved contacts yet."
				columns=${[
					{ title: 'When', width: '12rem', cell: (s: Search) => when(s.at) },
					{ title: 'Niche', width: '1fr', cell: (s: Search) => s.request.niche },
					{ title: 'City', width: '1fr', cell: (s: Search) => s.request.city },
					{ title: 'Filters', width: '1fr', cell: (s: Search) => filters(s.request) },
					{ title: 'Asked', width: '4.5rem', cell: (s: Search) => count(s.request.count) },
					{ title: 'Found', width: '4.5rem', cell: (s: Search) => count(s.found) },
					{ title: 'Added', width: '4.5rem', cell: (s: Search) => count(s.charged) },
					{ title: 'Refunded', width: '5.5rem', cell: (s: Search) => count(s.refunded) },
					{ title: 'Duplicates', width: '6.5rem', cell: (s: Search) => count(s.duplicates) },
					{
						title: 'Took',
						width: '5rem',
						cell: (s: Search) => `${(s.durationMs / 1000).toFixed(1)} s`,
					},
				]}
			/>
		</section>
		<section aria-labelledby="contacts-title">
			<h2 id="contacts-title">
				Contacts${' '}
				<span class="muted"
					>(${count(contacts.length)} of ${count(account.contactCount)} loaded)</span
				>
			</h2>
			<${VirtualTable}
				label="Contacts"
				rows=${contacts}
				visibleRows=${12}
				empty="No contacts yet."
				columns=${[
					{ title: 'Business', width: '1.3fr', cell: (c: Contact) => c.businessName },
					{ title: 'Email', width: '1.3fr', cell: (c: Contact) => c.email ?? '–' },
					{ title: 'Website', width: '1.2fr', cell: (c: Contact) => c.website ?? '–' },
					{ title: 'Meta', width: '4rem', cell: (c: Contact) => flag(c.fbPixel) },
					{ title: 'TikTok', width: '4rem', cell: (c: Contact) => flag(c.tikTokPixel) },
					{ title: 'Analytics', width: '5.5rem', cell: (c: Contact) => flag(c.gAnalytics) },
					{
						title: 'Where',
						width: '4.5rem',
						cell: (c: Contact) =>
							c.website
								? html`<button
										type="button"
										class="link"
										aria-label=${`show where the codes of ${c.businessName} were found`}
										onClick=${() => setWhere(c.website!)}
									>
										show
									</button>`
								: '–',
					},
					{
						title: 'Categories',
						width: '1fr',
						cell: (c: Contact) => c.googleBusinessCategories.join(', '),
					},
				]}
			/>
			${where && html`<${WhereFound} website=${where} onClose=${() => setWhere(undefined)} />`}
		</section>`;
}
