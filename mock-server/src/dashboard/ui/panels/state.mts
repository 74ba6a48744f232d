/** What shapes the answers besides the data: the clock, armed faults, and a proxied service's divergences. */
import { count, when } from '../format.mjs';
import { html } from '../html.mjs';
import type { Clock, Divergence, Faults } from '../types.mjs';

const CLASSES = ['breaks-spec', 'open-point', 'beyond-spec'] as const;

export function StatePanel(props: {
	clock?: Clock;
	faults?: Faults;
	divergences: Divergence[];
	exchanges: number;
}) {
	const { clock, faults, divergences } = props;
	const armed = [
		...(faults?.storage ?? []).map((f) => `${f.target}: the next ${f.times} save(s) fail`),
		...(faults?.routes ?? []).map(
			(f) =>
				`${f.route}: the next ${f.times} request(s) ${f.drop ? 'dropped' : f.status ? `answered ${f.status}` : 'delayed'}${f.delayMs ? ` after ${f.delayMs} ms` : ''}`,
		),
	];
	return html`<section aria-labelledby="state-title">
		<h2 id="state-title">Clock, faults and divergences</h2>
		<dl class="figures">
			<div>
				<dt>Server clock</dt>
				<dd>${clock ? when(clock.now) : '–'}</dd>
			</div>
			<div>
				<dt>Clock</dt>
				<dd>
					${!clock
						? '–'
						: clock.frozen
							? 'frozen'
							: clock.offsetSeconds
								? `moved ${count(clock.offsetSeconds)} s ahead`
								: 'real time'}
				</dd>
			</div>
			<div>
				<dt>Armed faults</dt>
				<dd>${armed.length}</dd>
			</div>
			<div>
				<dt>Proxied answers checked</dt>
				<dd>${count(props.exchanges)}</dd>
			</div>
		</dl>
		${armed.length > 0 &&
		html`<ul>
			${armed.map((a) => html`<li>${a}</li>`)}
		</ul>`}
		${divergences.length === 0
			? html`<p class="muted">
					No divergence
					seen${props.exchanges
						? ''
						: ' (the server proxies no real service, or none answered yet)'}.
				</p>`
			: html`<p>
						${CLASSES.map(
							(c) =>
								html`<span class=${`badge ${c}`}
									>${c}: ${divergences.filter((d) => d.class === c).length}</span
								> `,
						)}
					</p>
					<table>
						<thead>
							<tr>
								<th scope="col">Class</th>
								<th scope="col">Operation</th>
								<th scope="col">What</th>
								<th scope="col">Seen</th>
								<th scope="col" class="num">Count</th>
								<th scope="col">The nodes</th>
							</tr>
						</thead>
						<tbody>
							${divergences.map(
								(d) =>
									html`<tr>
										<td><span class=${`badge ${d.class}`}>${d.class}</span></td>
										<td><code>${d.operation}</code></td>
										<td>${d.what}</td>
										<td>${d.seen}</td>
										<td class="num">${d.count}</td>
										<td title=${d.nodes.says}>${d.nodes.effect}</td>
									</tr>`,
							)}
						</tbody>
					</table>`}
	</section>`;
}
