/**
 * A table that renders only the rows in view (TanStack Virtual's core), so 10,000 contacts or
 * 50,000 requests scroll as smoothly as ten. Fixed row height and a fixed viewport: nothing moves
 * as rows arrive. An ARIA table (rowcount and rowindex say where a row is in the whole).
 */
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useMemo, useReducer, useRef } from 'preact/hooks';
import {
	elementScroll,
	observeElementOffset,
	observeElementRect,
	Virtualizer,
} from '@tanstack/virtual-core';
import { html } from './html.mjs';

export interface Column<T> {
	title: string;
	/** CSS grid track, e.g. "8rem" or "1fr". */
	width: string;
	cell: (row: T) => ComponentChildren;
}

const ROW = 30;

export function VirtualTable<T>(props: {
	label: string;
	rows: T[];
	columns: Column<T>[];
	/** Height of the scrolling viewport in rows. */
	visibleRows?: number;
	empty: string;
}) {
	const { rows, columns, label } = props;
	const viewport = useRef<HTMLDivElement>(null);
	const [, rerender] = useReducer((n: number) => n + 1, 0);
	const virtualizer = useMemo(
		() =>
			new Virtualizer<HTMLDivElement, Element>({
				count: rows.length,
				getScrollElement: () => viewport.current,
				estimateSize: () => ROW,
				overscan: 12,
				observeElementRect,
				observeElementOffset,
				scrollToFn: elementScroll,
				onChange: () => rerender(0),
			}),
		[],
	);
	virtualizer.setOptions({ ...virtualizer.options, count: rows.length });
	useLayoutEffect(() => virtualizer._didMount(), []);
	useLayoutEffect(() => virtualizer._willUpdate());
	const template = columns.map((c) => c.width).join(' ');
	const height = (props.visibleRows ?? 12) * ROW;
	return html`<div class="vtable">
		<div role="table" aria-label=${label} aria-rowcount=${rows.length + 1}>
			<div role="rowgroup">
				<div
					role="row"
					aria-rowindex="1"
					class="vrow head"
					style=${{ gridTemplateColumns: template }}
				>
					${columns.map((c) => html`<span role="columnheader">${c.title}</span>`)}
				</div>
			</div>
			<div
				ref=${viewport}
				class="viewport"
				role="rowgroup"
				tabindex="0"
				aria-label=${`${label}: ${rows.length} rows, scroll to see more`}
				style=${{ height: `${height}px` }}
			>
				${rows.length === 0
					? html`<p class="empty">${props.empty}</p>`
					: html`<div style=${{ height: `${virtualizer.getTotalSize()}px`, position: 'relative' }}>
							${virtualizer.getVirtualItems().map(
								(item) =>
									html`<div
										role="row"
										aria-rowindex=${item.index + 2}
										class="vrow"
										style=${{
											gridTemplateColumns: template,
											transform: `translateY(${item.start}px)`,
										}}
									>
										${columns.map(
											(c) => html`<span role="cell">${c.cell(rows[item.index])}</span>`,
										)}
									</div>`,
							)}
						</div>`}
			</div>
		</div>
	</div>`;
}
