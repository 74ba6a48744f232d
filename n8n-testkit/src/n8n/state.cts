/**
 * n8n's own state that outlives a test file on a worker's n8n: Data Tables (a workflow's Data Table
 * node writes rows; on 2.x it can create tables) and variables ($vars). Emptied between files so a
 * file sees what its own cases made, not what the file before it left, whichever order files run
 * in. The same REST calls on 1.123, 2.8 and 2.40.
 */
import type { Rest } from './rest.cjs';

/** What emptying removed. */
export interface EmptiedState {
	dataTables: number;
	variables: number;
}

export async function emptyN8nState(rest: Rest): Promise<EmptiedState> {
	return { dataTables: await deleteDataTables(rest), variables: await deleteVariables(rest) };
}

async function deleteDataTables(rest: Rest): Promise<number> {
	let deleted = 0;
	for (;;) {
		const listed = await rest('GET', '/data-tables-global?skip=0&take=100');
		if (listed.status !== 200) throw refused('list its Data Tables', listed);
		const page = listed.body as { data?: { data?: { id: string; projectId: string }[] } };
		const tables = page.data?.data ?? [];
		if (!tables.length) return deleted;
		for (const table of tables) {
			const gone = await rest(
				'DELETE',
				`/projects/${encodeURIComponent(table.projectId)}/data-tables/${encodeURIComponent(table.id)}`,
			);
			if (gone.status !== 200) throw refused(`delete Data Table ${table.id}`, gone);
			deleted++;
		}
	}
}

/**
 * Variables are a licensed feature: an unlicensed n8n (the runner's) cannot create them, so there is
 * usually none; any there are deleted.
 */
async function deleteVariables(rest: Rest): Promise<number> {
	const listed = await rest('GET', '/variables');
	if (listed.status !== 200) throw refused('list its variables', listed);
	const variables = (listed.body as { data?: { id: string }[] }).data ?? [];
	for (const variable of variables) {
		const gone = await rest('DELETE', `/variables/${encodeURIComponent(variable.id)}`);
		if (gone.status !== 200) throw refused(`delete variable ${variable.id}`, gone);
	}
	return variables.length;
}

const refused = (what: string, answer: { status: number; body: unknown }) =>
	new Error(
		`n8n refused to ${what} (HTTP ${answer.status}): ${JSON.stringify(answer.body).slice(0, 300)}`,
	);
