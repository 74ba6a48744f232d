/**
 * A creation answer beside its entries: inboxes created under an error status (said first: a
 * client that trusts the status misses them), the batch's status, one result per entry matched by
 * address (and their order), the summary and the overall flag against the results, an inboxId for
 * each created entry, autoFilledFields where the provider was known and settings were not sent
 * (spec rule 3), the auto-created pool (rules 1 and 2), and the fields of failed entries.
 */
import { PROVIDERS } from '../../contract/inboxes.cjs';
import { providerOfDomain, STATUS_OF_CODE } from '../../inboxes/index.cjs';
import { addressKey, entriesOf, type Exchange, type Finding, isObject } from './exchange.cjs';
import { CREATION_ANSWER, fieldFindings } from './spec-fields.cjs';

const SETTINGS = ['imapHost', 'imapPort', 'smtpHost', 'smtpPort'];
/** The status a single entry answers with one of this server's codes (its rule), or undefined. */
const statusOfCode = (code: unknown) =>
	typeof code === 'string' && Object.hasOwn(STATUS_OF_CODE, code)
		? STATUS_OF_CODE[code as keyof typeof STATUS_OF_CODE]
		: undefined;
/** Fields of a result this server gives beyond the spec's (its rules): no difference. */
const OUR_RESULT_FIELDS = ['poolId', 'error', 'code', 'details'];

const providerKnown = (entry: Record<string, unknown>) =>
	(PROVIDERS as readonly string[]).includes(entry.provider as string) ||
	(typeof entry.emailAddress === 'string' &&
		providerOfDomain(entry.emailAddress.split('@').pop() ?? '') !== undefined);

/** Created: success true, or, where success is missing (the field check says so), an inboxId. */
const isCreated = (result: Record<string, unknown>) =>
	result.success === true || (result.success === undefined && typeof result.inboxId === 'string');

const poolShaped = (value: unknown) =>
	isObject(value) && 'id' in value && !('emailAddress' in value);

export function creationFindings(exchange: Exchange, answer: unknown): Finding[] {
	const found: Finding[] = [];
	const results =
		isObject(answer) && Array.isArray(answer.results) ? answer.results.filter(isObject) : undefined;
	if (!isObject(answer) || !results) return fieldFindings(CREATION_ANSWER, answer);
	const entries = entriesOf(exchange.requestBody);
	const batch = Array.isArray(exchange.requestBody);
	const { status } = exchange;
	const ok = status >= 200 && status < 300;

	found.push(
		...fieldFindings(CREATION_ANSWER, answer, {
			// A failed entry's fields are judged as one (failed-entry-shape), the pool by its rules.
			skipExtra: (path, key) =>
				(path.length === 0 && (key === 'pool' || poolShaped(answer[key]))) ||
				(path[0] === 'results' && path.length === 2 && OUR_RESULT_FIELDS.includes(key)) ||
				(path[0] === 'results' &&
					path.length === 2 &&
					results[path[1] as number]?.success === false),
		}).filter((f) => !(f.kind === 'field-missing' && f.subject === 'pool')),
	);

	const created = results.filter(isCreated);
	const failed = results.filter((r) => !isCreated(r));
	if (!ok && created.length)
		found.push({
			kind: 'created-under-error',
			subject: String(status),
			seen: `HTTP ${status} while ${created.length} of ${entries.length} entr${entries.length === 1 ? 'y was' : 'ies were'} created`,
		});
	else if (batch && status !== 200)
		found.push({
			kind: 'batch-status',
			subject: String(status),
			seen: `${status} for a batch of ${entries.length}`,
		});
	if (!batch && failed.length === 1 && created.length === 0) {
		const code = failed[0].code;
		const expected = statusOfCode(code);
		if (ok || (expected !== undefined && expected !== status))
			found.push({
				kind: 'single-status',
				subject: String(status),
				seen: `${status} for a single entry that failed${typeof code === 'string' ? ` with ${code}` : ''}`,
			});
	}

	// One result per entry, matched by address.
	const sent = entries.map((e) => addressKey(e.emailAddress));
	const answered = results.map((r) => addressKey(r.emailAddress));
	const stranger = answered.find((a) => a !== undefined && !sent.includes(a));
	if (results.length !== entries.length || stranger)
		found.push({
			kind: 'results-count',
			seen: stranger
				? `a result for ${stranger}, which was not sent`
				: `${results.length} results for ${entries.length} entries`,
		});
	else if (answered.some((a, i) => a !== undefined && sent[i] !== undefined && a !== sent[i]))
		found.push({ kind: 'results-order', seen: `results in the order ${answered.join(', ')}` });

	const summary = isObject(answer.summary) ? answer.summary : undefined;
	if (summary) {
		const counts: Array<[string, number]> = [
			['total', entries.length],
			['created', created.length],
			['failed', failed.length],
		];
		const off = counts.filter(([k, n]) => summary[k] !== undefined && Number(summary[k]) !== n);
		if (off.length)
			found.push({
				kind: 'summary-counts',
				seen: off
					.map(([k, n]) => `summary.${k} ${JSON.stringify(summary[k])} where results show ${n}`)
					.join('; '),
			});
	}
	if (
		typeof answer.success === 'boolean' &&
		results.length === entries.length &&
		answer.success !== (failed.length === 0)
	)
		found.push({
			kind: 'success-flag',
			seen: `success ${answer.success} with ${created.length} of ${entries.length} created`,
		});

	for (const [i, result] of results.entries()) {
		if (result.success === true && (typeof result.inboxId !== 'string' || result.inboxId === ''))
			found.push({
				kind: 'created-without-id',
				seen: `results[${i}] created without inboxId`,
				at: `results[${i}]`,
			});
		if (!isCreated(result)) found.push(...failedEntry(result, i));
		const entry = entries[sent.indexOf(addressKey(result.emailAddress))];
		if (isCreated(result) && entry) found.push(...autoFilled(entry, result, i));
	}

	found.push(...poolFindings(answer, entries, created));
	return found;
}

/** A single entry refused with an error body: its status against the one this server gives its code. */
export function singleFailure(exchange: Exchange, answer: unknown): Finding[] {
	const code = isObject(answer) ? answer.code : undefined;
	const expected = statusOfCode(code);
	if (Array.isArray(exchange.requestBody) || !expected || expected === exchange.status) return [];
	return [
		{
			kind: 'single-status',
			subject: String(exchange.status),
			seen: `${exchange.status} for a single entry that failed with ${code as string}`,
		},
	];
}

function failedEntry(result: Record<string, unknown>, i: number): Finding[] {
	const found: Finding[] = [];
	if (typeof result.error !== 'string' || typeof result.code !== 'string')
		found.push({
			kind: 'failed-entry-shape',
			subject: Object.keys(result).sort().join(', '),
			seen: `a failed entry of ${Object.keys(result).sort().join(', ')}`,
			at: `results[${i}]`,
			value: result,
		});
	else if (statusOfCode(result.code) === undefined)
		found.push({
			kind: 'failed-entry-code',
			subject: result.code,
			seen: `code ${JSON.stringify(result.code)}`,
			at: `results[${i}].code`,
		});
	return found;
}

function autoFilled(
	entry: Record<string, unknown>,
	result: Record<string, unknown>,
	i: number,
): Finding[] {
	const notSent = SETTINGS.filter((name) => entry[name] === undefined || entry[name] === null);
	const listed = Array.isArray(result.autoFilledFields) ? result.autoFilledFields : [];
	const found: Finding[] = [];
	const sentButListed = listed.filter((name) => !notSent.includes(name as string));
	if (sentButListed.length)
		found.push({
			kind: 'autofill-sent',
			seen: `autoFilledFields lists ${sentButListed.join(', ')}, which the entry sent`,
			at: `results[${i}].autoFilledFields`,
		});
	if (notSent.length && listed.length === 0 && providerKnown(entry))
		found.push({
			kind: 'autofill-missing',
			subject: typeof entry.provider === 'string' ? 'by provider' : 'by domain',
			seen: `created without autoFilledFields, ${notSent.join(', ')} not sent, provider ${
				typeof entry.provider === 'string'
					? `"${entry.provider}"`
					: `known by its domain (${String(entry.emailAddress).split('@').pop()})`
			}`,
			at: `results[${i}]`,
		});
	return found;
}

/** Rules 1 and 2: a pool comes back exactly when entries without poolId created one. */
function poolFindings(
	answer: Record<string, unknown>,
	entries: Record<string, unknown>[],
	created: Record<string, unknown>[],
): Finding[] {
	const withoutPool = entries
		.filter((e) => e.poolId === undefined || e.poolId === null)
		.map((e) => addressKey(e.emailAddress));
	const madePool = created.some((r) => withoutPool.includes(addressKey(r.emailAddress)));
	const other = Object.keys(answer).find((key) => key !== 'pool' && poolShaped(answer[key]));
	if (withoutPool.length === 0 && (answer.pool !== undefined || other))
		return [
			{
				kind: 'pool-unasked',
				seen: `${answer.pool !== undefined ? 'pool' : other} returned`,
				at: answer.pool !== undefined ? 'pool' : other,
			},
		];
	if (!madePool) return [];
	if (isObject(answer.pool)) return [];
	if (other)
		return [
			{
				kind: 'pool-field',
				subject: other,
				seen: `the new pool under ${other}`,
				at: other,
				value: answer[other],
			},
		];
	return [
		{
			kind: 'pool-missing',
			seen: answer.pool === undefined ? 'no pool field' : `pool is ${JSON.stringify(answer.pool)}`,
		},
	];
}
