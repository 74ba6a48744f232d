/**
 * The reference server's dashboard: what workflows did to the service, live. Reads only the admin
 * API, with the admin token the user signs in with (kept for this tab); changes nothing.
 */
import { render } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import {
	admin,
	follow,
	forgetToken,
	type RequestSummary,
	saveToken,
	savedToken,
	Unauthorized,
} from './api.mjs';
import { count } from './format.mjs';
import { html } from './html.mjs';
import { AccountPanel } from './panels/account.mjs';
import { InboxesPanel } from './panels/inboxes.mjs';
import { JournalPanel } from './panels/journal.mjs';
import { StatePanel } from './panels/state.mjs';
import type {
	Account,
	Clock,
	Contact,
	Divergence,
	Faults,
	Key,
	LedgerEntry,
	Page,
	Pool,
	Search,
} from './types.mjs';

/** The journal's requests loaded at once (summaries only): the journal keeps 10,000 by default. */
const JOURNAL_LIMIT = 100_000;
/** Live changes are read again at most this often. */
const REFRESH_MS = 400;

function SignIn({ onSignedIn, problem }: { onSignedIn: () => void; problem?: string }) {
	const [error, setError] = useState(problem);
	const submit = async (event: Event) => {
		event.preventDefault();
		const token = (new FormData(event.target as HTMLFormElement).get('token') as string).trim();
		try {
			await admin('/clock', token);
			saveToken(token);
			onSignedIn();
		} catch (e) {
			setError(
				e instanceof Unauthorized ? "That is not this server's admin token." : (e as Error).message,
			);
		}
	};
	return html`<main class="signin">
		<h1>Lead Inbox reference server</h1>
		<form onSubmit=${submit}>
			<label for="token">Admin token</label>
			<p class="muted" id="token-help">
				Printed by <code>npm start</code> as "admin token" (or set with --admin-token). Kept for
				this tab only.
			</p>
			<input
				id="token"
				name="token"
				type="password"
				autocomplete="off"
				required
				aria-describedby="token-help"
			/>
			<button type="submit">Sign in</button>
			${error && html`<p role="alert" class="bad">${error}</p>`}
		</form>
	</main>`;
}

interface AccountData {
	ledger: LedgerEntry[];
	searches: Search[];
	contacts: Contact[];
	pools: Pool[];
	keys: Key[];
}

const EMPTY: AccountData = { ledger: [], searches: [], contacts: [], pools: [], keys: [] };

/** The pages of a paged admin list, 1000 at a time from `from`, until the end or `enough` says so. */
async function pages<T>(
	path: string,
	field: string,
	from = 0,
	enough: (rows: T[]) => boolean = () => false,
): Promise<T[]> {
	const rows: T[] = [];
	for (let skip = from; ; ) {
		const page = await admin<Page & Record<string, T[]>>(
			`${path}${path.includes('?') ? '&' : '?'}limit=1000&skip=${skip}`,
		);
		rows.push(...page[field]);
		skip += page[field].length;
		if (!page.pagination.hasMore || page[field].length === 0 || enough(page[field])) return rows;
	}
}

/** An oldest-first list that only grows (contacts, the ledger): what is known, and what was added since. */
const appended = async <T,>(path: string, field: string, known: T[]) => [
	...known,
	...(await pages<T>(path, field, known.length)),
];

/** A newest-first list that only grows (searches): the new ones read until a known one, then the known. */
async function prepended<T extends { id: string }>(path: string, field: string, known: T[]) {
	const ids = new Set(known.map((row) => row.id));
	const read = await pages<T>(path, field, 0, (page) => page.some((row) => ids.has(row.id)));
	const cut = read.findIndex((row) => ids.has(row.id));
	return cut < 0 ? read : [...read.slice(0, cut), ...known];
}

function Dashboard({ onSignOut }: { onSignOut: (problem?: string) => void }) {
	const [accounts, setAccounts] = useState<Account[]>([]);
	const [selected, setSelected] = useState<string>();
	const [data, setData] = useState<AccountData>(EMPTY);
	const [requests, setRequests] = useState<RequestSummary[]>([]);
	const [clock, setClock] = useState<Clock>();
	const [faults, setFaults] = useState<Faults>();
	const [divergences, setDivergences] = useState<{ divergences: Divergence[]; exchanges: number }>({
		divergences: [],
		exchanges: 0,
	});
	const [live, setLive] = useState(false);
	// The account's growing lists as last read: each refresh reads only what is new.
	const grown = useRef<
		{ account?: string } & Pick<AccountData, 'contacts' | 'ledger' | 'searches'>
	>({ contacts: [], ledger: [], searches: [] });

	const refresh = useCallback(async (account?: string) => {
		try {
			const [list, clockNow, armed, report] = await Promise.all([
				admin<{ accounts: Account[] }>('/accounts'),
				admin<Clock>('/clock'),
				admin<Faults>('/faults'),
				admin<{ divergences: Divergence[]; exchanges: number }>('/divergences'),
			]);
			setAccounts(list.accounts);
			setClock(clockNow);
			setFaults(armed);
			setDivergences(report);
			const id = account ?? list.accounts[0]?.id;
			if (!id) return;
			setSelected((current) => current ?? id);
			const known = grown.current.account === id ? grown.current : { ...EMPTY };
			const [contacts, ledger, searches, pools, keys] = await Promise.all([
				appended(`/accounts/${id}/contacts`, 'contacts', known.contacts),
				appended(`/accounts/${id}/ledger`, 'entries', known.ledger),
				prepended(`/searches?accountId=${id}`, 'searches', known.searches),
				admin<{ pools: Pool[] }>(`/accounts/${id}/pools`),
				admin<{ keys: Key[] }>(`/accounts/${id}/keys`),
			]);
			grown.current = { account: id, contacts, ledger, searches };
			setData({ ledger, searches, contacts, pools: pools.pools, keys: keys.keys });
		} catch (error) {
			if (error instanceof Unauthorized) onSignOut('The admin token was refused: sign in again.');
		}
	}, []);

	// One read of the journal at a time: under load, batches that overflow ask for it often.
	const journalLoading = useRef(false);
	const loadJournal = async () => {
		if (journalLoading.current) return;
		journalLoading.current = true;
		try {
			const { requests: all } = await admin<{ requests: RequestSummary[] }>(
				`/requests?summary=true&limit=${JOURNAL_LIMIT}`,
			);
			setRequests(all);
		} catch {
			// the next batch or refresh tries again
		} finally {
			journalLoading.current = false;
		}
	};

	// The first load, then again after live changes (at most every REFRESH_MS).
	const pending = useRef<number | undefined>(undefined);
	const selectedRef = useRef<string | undefined>(undefined);
	selectedRef.current = selected;
	useEffect(() => {
		void refresh();
		void loadJournal();
		const stop = new AbortController();
		void follow(
			({ requests: batch, dropped }) => {
				// More than a batch holds: the journal has them all.
				if (dropped > 0) void loadJournal();
				else
					setRequests((list) => {
						const last = list.length ? list[list.length - 1].id : 0;
						// As many as the journal could keep at most: the page's memory stays bounded.
						return [...list, ...batch.filter((r) => r.id > last)].slice(-JOURNAL_LIMIT);
					});
				// One refresh waiting at a time: under steady load, one every REFRESH_MS.
				if (pending.current === undefined)
					pending.current = window.setTimeout(() => {
						pending.current = undefined;
						void refresh(selectedRef.current);
					}, REFRESH_MS);
			},
			setLive,
			stop.signal,
		);
		return () => stop.abort();
	}, []);

	const choose = (id: string) => {
		setSelected(id);
		grown.current = { ...EMPTY };
		setData(EMPTY);
		void refresh(id);
	};
	const account = accounts.find((a) => a.id === selected);
	return html`<div class="layout">
		<header>
			<h1>Lead Inbox reference server</h1>
			<span class=${live ? 'live on' : 'live'} role="status"
				>${live ? 'Live' : 'Connecting...'}</span
			>
			<a href="/docs">API docs</a>
			<button type="button" onClick=${() => onSignOut()}>Sign out</button>
		</header>
		<nav aria-label="Accounts">
			<h2>Accounts</h2>
			<ul>
				${accounts.map(
					(a) =>
						html`<li>
							<button
								type="button"
								aria-current=${a.id === selected ? 'true' : undefined}
								onClick=${() => choose(a.id)}
							>
								<span class="account-id">${a.dev ? 'dev account' : a.id}</span>
								<span class="muted"
									>${count(a.credits)} credits, ${count(a.contactCount)} contacts</span
								>
							</button>
						</li>`,
				)}
			</ul>
		</nav>
		<main>
			${account
				? html`<${AccountPanel} account=${account} ...${data} />
						<${InboxesPanel} pools=${data.pools} keys=${data.keys} />`
				: html`<p class="empty">No account yet.</p>`}
			<${JournalPanel} requests=${requests} />
			<${StatePanel}
				clock=${clock}
				faults=${faults}
				divergences=${divergences.divergences}
				exchanges=${divergences.exchanges}
			/>
		</main>
	</div>`;
}

function App() {
	const [signedIn, setSignedIn] = useState(savedToken() !== '');
	const [problem, setProblem] = useState<string>();
	if (!signedIn)
		return html`<${SignIn} problem=${problem} onSignedIn=${() => setSignedIn(true)} />`;
	return html`<${Dashboard}
		onSignOut=${(why?: string) => {
			forgetToken();
			setProblem(why);
			setSignedIn(false);
		}}
	/>`;
}

render(html`<${App} />`, document.getElementById('app')!);
