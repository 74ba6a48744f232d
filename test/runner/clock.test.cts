import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClockControl, PRELOAD } from '../../n8n-testkit/src/clock/clock-control.cjs';

/**
 * The test clock as n8n's processes get it (node --require of the runner's preload): every
 * reader of "now" in the process (Date, Date(), a vm context's own Date, a worker thread's) reads
 * the case's time, set from the runner and acknowledged before the runner goes on; Date stays
 * Date for the code that uses it (instanceof, subclasses, parsing, UTC).
 */
const READ = `
const vm = require('node:vm');
const { Worker } = require('node:worker_threads');
const read = async () => {
	const context = vm.createContext({});
	const worker = await new Promise((resolve) => {
		const w = new Worker('require("node:worker_threads").parentPort.postMessage(Date.now())', { eval: true });
		w.once('message', (v) => { resolve(v); w.terminate(); });
	});
	class Stamp extends Date {}
	return {
		now: Date.now(),
		newDate: new Date().getTime(),
		text: Date(),
		vm: vm.runInContext('new Date().getTime()', context),
		vmNow: vm.runInContext('Date.now()', context),
		vmInstance: vm.runInContext('new Date() instanceof Date && Object.prototype.toString.call(new Date())', context),
		worker,
		instance: new Date() instanceof Date && new Date(0).constructor === Date,
		subclass: new Stamp() instanceof Date && new Stamp().getTime() > 0 && new Stamp(5).getTime() === 5,
		given: new Date('2020-01-02T03:04:05Z').toISOString(),
		utc: Date.UTC(2020, 0, 2),
		parse: Date.parse('2020-01-02T03:04:05Z'),
	};
};
process.stdin.on('data', async () => process.stdout.write(JSON.stringify(await read()) + '\\n'));
`;

describe('the test clock in a process of n8n', () => {
	let dir: string;
	let control: ClockControl;
	let child: ChildProcess;
	let lines: string[] = [];
	let waiting: ((line: string) => void) | undefined;

	const read = async (): Promise<Record<string, unknown>> => {
		const line = new Promise<string>((resolve) => (waiting = resolve));
		child.stdin!.write('read\n');
		return JSON.parse(await line) as Record<string, unknown>;
	};

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), 'clock-'));
		control = await ClockControl.start(dir);
		child = spawn(process.execPath, ['--require', PRELOAD, '-e', READ], {
			env: { ...process.env, ...control.n8nEnv },
			stdio: ['pipe', 'pipe', 'inherit'],
		});
		let pending = '';
		child.stdout!.on('data', (chunk: Buffer) => {
			pending += chunk.toString();
			const end = pending.lastIndexOf('\n');
			lines = pending.slice(0, end).split('\n');
			pending = pending.slice(end + 1);
			if (lines[0]) waiting?.(lines[0]);
		});
		await control.connected('main');
	});

	afterAll(async () => {
		child.kill();
		await control.close();
		rmSync(dir, { recursive: true, force: true });
	});

	it('reads the instant set, in the process, its vm contexts and its worker threads, and runs on from it', async () => {
		const at = Date.parse('2031-05-06T07:08:09Z');
		await control.set(at);
		const got = await read();
		for (const reader of ['now', 'newDate', 'vm', 'vmNow', 'worker'] as const) {
			expect({ reader, read: got[reader] }).toEqual({ reader, read: expect.any(Number) });
			expect({ reader, after: (got[reader] as number) >= at }).toEqual({ reader, after: true });
			expect({ reader, soon: (got[reader] as number) < at + 60_000 }).toEqual({
				reader,
				soon: true,
			});
		}
		expect(got.text).toMatch(/^Tue May 06 2031 /);
		// Date is still Date to the code using it.
		expect(got).toMatchObject({
			instance: true,
			subclass: true,
			vmInstance: '[object Date]',
			given: '2020-01-02T03:04:05.000Z',
			utc: Date.UTC(2020, 0, 2),
			parse: Date.parse('2020-01-02T03:04:05Z'),
		});
		expect(control.now() - at).toBeLessThan(60_000);
	});

	it('moves when the runner moves it, forward by days or back to an earlier instant', async () => {
		const at = Date.parse('2031-05-06T07:08:09Z');
		await control.set(at + 3 * 86_400_000);
		expect(new Date((await read()).newDate as number).toISOString()).toMatch(/^2031-05-09T07:/);
		await control.set(Date.parse('2020-02-29T12:00:00Z'));
		const back = await read();
		expect(new Date(back.now as number).toISOString()).toMatch(/^2020-02-29T12:0/);
		expect(new Date(back.vm as number).toISOString()).toMatch(/^2020-02-29T12:0/);
	});

	it('says what it found in the process: no n8n here, so no Wait node or WaitTracker', async () => {
		const main = await control.connected('main');
		expect(main).toMatchObject({ role: 'main', waitNode: false, waitTracker: false });
		// Asked to resume waits, a process without n8n's WaitTracker says it cannot.
		expect(await control.resumeDue(['1'])).toBe(false);
	});
});
