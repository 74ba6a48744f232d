import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import type { SearchRequest } from './search';

/*
 * How deep the last run of this workflow went for a search, kept in the workflow's static data.
 * n8n saves static data after runs of a published (active) workflow, so a daily pull starts where
 * yesterday's ended instead of climbing from the top; a manual run reads it but n8n does not save
 * what it writes, so testing in the editor never moves a published workflow's place.
 */

/** Searches remembered per node; the oldest are forgotten past this. */
const MAX_REMEMBERED = 500;

interface Remembered {
	/** The top `depth` results of this search were all contacts of the account after that run. */
	depth: number;
	at: string;
}

/**
 * One search of one account: the credential (another account holds other contacts), the niche,
 * the city and the filters, case and spaces ignored.
 */
export function searchKey(ctx: IExecuteFunctions, request: Omit<SearchRequest, 'count'>): string {
	const credential = ctx.getNode().credentials?.leadInboxApi?.id ?? '';
	const filters = Object.entries(request.filters)
		.sort(([a], [b]) => a.localeCompare(b))
		.map(([name, value]) => `${name}=${value}`);
	const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');
	return [credential, norm(request.niche), norm(request.city), ...filters].join('|');
}

/**
 * The node's remembered depths, or undefined where n8n gives no static data (some AI-tool
 * contexts). Created only to write: reading must not mark the static data as changed.
 */
function store(ctx: IExecuteFunctions, create: boolean): IDataObject | undefined {
	let data: IDataObject;
	try {
		data = ctx.getWorkflowStaticData('node');
	} catch {
		return undefined;
	}
	const depths = data.leadSearchDepths;
	if (typeof depths === 'object' && depths !== null) return depths as IDataObject;
	if (!create) return undefined;
	data.leadSearchDepths = {};
	return data.leadSearchDepths as IDataObject;
}

export function rememberedDepth(ctx: IExecuteFunctions, key: string): number | undefined {
	const entry = store(ctx, false)?.[key] as Remembered | undefined;
	const depth = entry?.depth;
	return Number.isInteger(depth) && (depth as number) > 0 ? (depth as number) : undefined;
}

export function rememberDepth(ctx: IExecuteFunctions, key: string, depth: number): void {
	const depths = store(ctx, true);
	if (!depths) return;
	if ((depths[key] as Remembered | undefined)?.depth === depth) return;
	delete depths[key];
	depths[key] = { depth, at: new Date().toISOString() } satisfies Remembered;
	// Insertion order is age: a search written again moves to the end.
	const keys = Object.keys(depths);
	for (const old of keys.slice(0, Math.max(0, keys.length - MAX_REMEMBERED))) delete depths[old];
}
