import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { firstMemory } from '../../nodes/LeadInboxTrigger/compare';
import { decodeKeys, encodeKeys, keyOf } from '../../nodes/LeadInboxTrigger/keys';
import { readMemory, writeMemory } from '../../nodes/LeadInboxTrigger/state';

/*
 * What the trigger keeps in the workflow's static data: keys of IDs, written compactly, read back
 * exactly, and a record written by version 0.1.0 (the IDs themselves) still understood after an
 * upgrade, so that an upgrade neither repeats nor loses an event.
 */

const inbox = (id: string, status = 'active') => ({
	id,
	status,
	createdAt: '2026-01-01T00:00:00Z',
});
const check = (items: IDataObject[]) => ({
	items,
	unsettled: false,
	now: Date.parse('2026-06-01T00:00:00Z'),
	groupOf: (item: IDataObject) => item.status as string,
	kind: 'status' as const,
	statuses: [],
});

describe('keys of IDs', () => {
	it('encodes any set of 48-bit keys and decodes it back, sorted', () => {
		fc.assert(
			fc.property(
				fc.array(fc.integer({ min: 0, max: 2 ** 48 - 1 }), { maxLength: 300 }),
				(keys) => {
					const encoded = encodeKeys(keys);
					expect(encoded).toMatch(/^[0-9a-zA-Z_-]*$/);
					expect(decodeKeys(encoded)).toEqual([...new Set(keys)].sort((a, b) => a - b));
				},
			),
		);
	});

	it('gives 200,000 IDs of one shape 200,000 keys, each under 2^48', () => {
		const keys = new Set<number>();
		for (let n = 0; n < 100_000; n++) {
			keys.add(keyOf(`inb_${n.toString(36).padStart(8, '0')}`));
			keys.add(keyOf(`00000000-0000-4000-8000-${String(n).padStart(12, '0')}`));
		}
		expect(keys.size).toBe(200_000);
		const largest = [...keys].reduce((a, b) => Math.max(a, b));
		expect(largest).toBeLessThan(2 ** 48);
		// Spread over the whole range: the top 16 bits are used too.
		expect(largest).toBeGreaterThan(2 ** 47);
	});

	it('refuses what is not an encoding (a damaged record), rather than reading wrong keys', () => {
		expect(decodeKeys('12wx')).toEqual([(1 * 32 + 2) * 32 + 0, 1088 + 1]); // two gaps: 1088, then 1
		expect(decodeKeys('1')).toBeUndefined(); // a gap without its last digit
		expect(decodeKeys('w!')).toBeUndefined();
	});
});

describe('the record in static data', () => {
	const scope = 'inboxStatusChanged|';

	it('holds about 7 characters an inbox at 50,000 inboxes, and reads back what was written', () => {
		const items = Array.from({ length: 50_000 }, (_, n) =>
			inbox(`00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, n % 10 ? 'active' : 'error'),
		);
		const staticData: IDataObject = {};
		const memory = firstMemory(check(items));
		writeMemory(staticData, scope, memory);
		const size = JSON.stringify(staticData).length;
		expect(size).toBeLessThan(50_000 * 8);
		expect(readMemory(staticData, scope)?.listed).toEqual(memory.listed);
	});

	it('reads a record of version 0.1.0 (IDs joined by line breaks), and rewrites it as keys', () => {
		// As 0.1.0 wrote it for two inboxes, one active and one in error, one missing.
		const old: IDataObject = {
			leadInboxTrigger: {
				scope,
				groups: { active: 'inbox_1\ninbox_2', error: 'inbox_3' },
				missing: [{ since: 5, misses: 1, groups: { active: 'inbox_9' } }],
				startedAt: 1,
			},
		};
		const memory = readMemory(old, scope)!;
		expect(memory.listed).toEqual(
			new Map([
				[keyOf('inbox_1'), 'active'],
				[keyOf('inbox_2'), 'active'],
				[keyOf('inbox_3'), 'error'],
			]),
		);
		expect(memory.missing).toEqual([
			{ since: 5, misses: 1, ids: new Map([[keyOf('inbox_9'), 'active']]) },
		]);
		writeMemory(old, scope, memory);
		expect(old.leadInboxTrigger).toMatchObject({
			format: 2,
			groups: { active: expect.not.stringContaining('inbox_') },
		});
		expect(readMemory(old, scope)).toEqual(memory);
	});

	it('starts over on a record it cannot read, or one written by a newer format', () => {
		const damaged = { leadInboxTrigger: { scope, format: 2, groups: { active: 'not keys!' } } };
		expect(readMemory(damaged, scope)).toBeUndefined();
		const newer = { leadInboxTrigger: { scope, format: 3, groups: {} } };
		expect(readMemory(newer, scope)).toBeUndefined();
	});
});
