// The test's clock inside n8n: loaded into n8n's main process (node --require) by the workflow
// test runner, and from there into every JavaScript task runner n8n spawns. Plain JavaScript:
// it runs on the Node.js of the n8n under test (Node 20 for 1.x), untranspiled.
//
// What it does, only when LEAD_INBOX_CLOCK names the runner's clock:
// - Date (and so Luxon's DateTime.now(), $now, $today, moment) reads this machine's time plus an
//   offset the runner sets: time runs on from the case's instant, as in life.
// - Every vm context made in the process (the task runner's Code node sandbox, 1.x's vm2) gets
//   such a Date of its own realm: `new Date()` in a Code node reads the same clock.
// - A Wait node on time always parks its execution in n8n's database (n8n keeps waits under
//   65 s in a timer of the process, which the runner could not skip), and the runner, having
//   moved the clock to the wait's end, asks n8n's WaitTracker to resume it at once instead of
//   at its next poll (every 60 s).
// - A request another service never answers (a mock's `never`) times out at once: the client
//   requests that set a time-out (axios, n8n's HTTP client, sets one on its request) are kept
//   while they wait, and the runner names the one to time out.
// The offset comes over a loopback socket (each change acknowledged before the runner goes on)
// and, for a process starting meanwhile, from a file the runner writes first.
'use strict';

const CONFIG = process.env.LEAD_INBOX_CLOCK;
/** How long an n8n whose runner has gone may take to shut down before it is killed. */
const ORPHAN_GRACE_MS = 15000;

/**
 * A Date constructor of `Real`'s realm reading `Real`'s time plus `offset()`. Written to be
 * evaluated inside other realms too (its source is run in each vm context): no outer names.
 */
function clockedDate(Real, offset) {
	const now = () => Real.now() + offset();
	function Date(...args) {
		if (new.target === undefined) return new Real(now()).toString();
		return Reflect.construct(Real, args.length ? args : [now()], new.target);
	}
	Object.defineProperty(Date, 'length', { value: 7 });
	Date.prototype = Real.prototype;
	Object.defineProperty(Real.prototype, 'constructor', {
		value: Date,
		writable: true,
		configurable: true,
	});
	Date.now = now;
	Date.parse = Real.parse;
	Date.UTC = Real.UTC;
	return Date;
}

if (CONFIG) install(JSON.parse(CONFIG));

function install(config) {
	const fs = require('node:fs');
	const net = require('node:net');
	const vm = require('node:vm');
	const childProcess = require('node:child_process');
	const Module = require('node:module');

	/** How far the test's clock is from this machine's, in milliseconds. */
	let offset = 0;
	try {
		offset = JSON.parse(fs.readFileSync(config.file, 'utf8')).offset;
	} catch {
		// The runner writes the file before it starts n8n; the socket brings the value anyway.
	}
	const readOffset = () => offset;
	globalThis.Date = clockedDate(Date, readOffset);

	// Each vm context's own Date, replaced before any code of the context runs.
	const source = `(${clockedDate.toString()})`;
	const createContext = vm.createContext;
	vm.createContext = function (...args) {
		const context = createContext.apply(this, args);
		const make = vm.runInContext(source, context);
		const clocked = make(vm.runInContext('Date', context), readOffset);
		vm.runInContext('(D) => { globalThis.Date = D; }', context)(clocked);
		return context;
	};

	// The task runner n8n spawns (`node [flags] .../@n8n/task-runner/.../start.js`, with an
	// allow-listed environment): this file and the clock's address go with it.
	const childConfig = JSON.stringify({ ...config, role: 'task runner' });
	const spawn = childProcess.spawn;
	childProcess.spawn = function (command, args, options) {
		if (
			Array.isArray(args) &&
			args.some((a) => typeof a === 'string' && /[\\/]@n8n[\\/]task-runner[\\/]/.test(a))
		) {
			args = ['--require', __filename, ...args];
			options = {
				...options,
				env: { ...(options && options.env), LEAD_INBOX_CLOCK: childConfig },
			};
		}
		return spawn.call(this, command, args, options);
	};

	// Client requests waiting with a time-out, to time out at once when the runner says their
	// answer will never come: each kept while it waits, with how to read its method and URL. Node's own
	// requests (a time-out set on them, as axios does without redirects), and follow-redirects'
	// (axios's transport by default), which time out on a timer of their own.
	const waiting = new Map();
	function keepWhileWaiting(request, describe) {
		if (waiting.has(request)) return;
		waiting.set(request, describe);
		const done = () => waiting.delete(request);
		request.once('response', done);
		request.once('close', done);
		request.once('error', done);
	}
	function keepOnTimeout(proto, describe) {
		if (proto.__testClock) return;
		const setTimeoutOf = proto.setTimeout;
		proto.setTimeout = function (ms, callback) {
			if (ms > 0) keepWhileWaiting(this, describe);
			return setTimeoutOf.call(this, ms, callback);
		};
		Object.defineProperty(proto, '__testClock', { value: true });
	}
	// Through the proxy an HTTPS request keeps its own host and path (the agent tunnels it); a
	// plain HTTP one has the proxy as its host and the full URL as its path.
	keepOnTimeout(require('node:http').ClientRequest.prototype, (request) => ({
		method: request.method,
		host: String(request.host || '').split(':')[0],
		path: String(request.path || ''),
	}));
	const FOLLOW_REDIRECTS = /[\\/]follow-redirects[\\/]index\.js$/;
	function keepRedirectable(exports) {
		for (const scheme of ['http', 'https']) {
			const transport = exports && exports[scheme];
			if (!transport || typeof transport.request !== 'function') continue;
			const request = transport.request;
			transport.request = function (...args) {
				const made = request.apply(this, args);
				keepOnTimeout(Object.getPrototypeOf(made), (r) => ({
					method: String((r._options && r._options.method) || 'GET').toUpperCase(),
					url: r._currentUrl,
				}));
				return made;
			};
		}
	}
	function timeOut({ method, url }) {
		const target = new URL(url);
		const bare = url.split('?')[0];
		let count = 0;
		for (const [request, describe] of [...waiting]) {
			const seen = describe(request);
			const path = String(seen.path || '').split('?')[0];
			const same =
				seen.method === method &&
				((seen.url && seen.url.split('?')[0] === bare) ||
					path === bare ||
					(seen.host === target.hostname && path === target.pathname));
			if (!same) continue;
			waiting.delete(request);
			request.emit('timeout');
			count++;
		}
		return count;
	}

	// What the runner is told it can rely on (checked when it starts n8n).
	const state = { waitNode: false, waitTracker: false, isolates: false };
	let tracker;
	const WAIT_NODE = /[\\/]n8n-nodes-base[\\/]dist[\\/]nodes[\\/]Wait[\\/]Wait\.node\.js$/;
	const WAIT_TRACKER = /[\\/]n8n[\\/]dist[\\/]wait-tracker\.js$/;
	const ISOLATED_VM = /[\\/]isolated-vm[\\/]isolated-vm\.js$/;
	const SHORT_WAIT = 'if (waitValue < 65000) {';
	const compile = Module.prototype._compile;
	Module.prototype._compile = function (content, filename) {
		if (WAIT_NODE.test(filename) && content.includes(SHORT_WAIT)) {
			content = content.replace(SHORT_WAIT, 'if (waitValue < 0) {');
			state.waitNode = true;
		}
		const result = compile.call(this, content, filename);
		if (FOLLOW_REDIRECTS.test(filename)) keepRedirectable(this.exports);
		if (ISOLATED_VM.test(filename) && this.exports && this.exports.Isolate)
			this.exports = clockIsolates(this.exports);
		const WaitTracker = WAIT_TRACKER.test(filename) && this.exports && this.exports.WaitTracker;
		if (WaitTracker && typeof WaitTracker.prototype.getWaitingExecutions === 'function') {
			const poll = WaitTracker.prototype.getWaitingExecutions;
			WaitTracker.prototype.getWaitingExecutions = function (...args) {
				tracker = this;
				return poll.apply(this, args);
			};
			state.waitTracker = true;
		}
		return result;
	};

	/**
	 * n8n 2.x's expression engine (isolated-vm, the default on 2.40) evaluates in V8 isolates of
	 * their own: each context gets a Date reading the offset through a callback into this process.
	 * isolated-vm's own objects are read-only: its exports are handed on with a subclass of Isolate.
	 */
	function clockIsolates(ivm) {
		const clock = (context) => {
			context.global.setSync('__leadInboxOffset', new ivm.Callback(readOffset));
			context.evalSync(
				`globalThis.Date = (${clockedDate.toString()})(Date, globalThis.__leadInboxOffset); delete globalThis.__leadInboxOffset;`,
			);
			return context;
		};
		class Isolate extends ivm.Isolate {
			async createContext(...args) {
				return clock(await super.createContext(...args));
			}
			createContextSync(...args) {
				return clock(super.createContextSync(...args));
			}
		}
		state.isolates = true;
		return Object.create(ivm, { Isolate: { value: Isolate, enumerable: true } });
	}

	/** Resumes the named executions now if due: their timers (set on the old clock) set again. */
	async function resume(executionIds) {
		if (!tracker) return false;
		for (const id of executionIds) tracker.stopExecution(String(id));
		await tracker.getWaitingExecutions();
		return true;
	}

	const socket = net.connect(config.port, '127.0.0.1');
	// The clock never keeps n8n alive: n8n decides when it exits.
	socket.unref();
	socket.on('error', () => undefined);
	// The runner holds the other end: once it has gone (killed, even with SIGKILL, or ended with
	// its parent), nothing will stop this n8n, so it stops itself. The main process shuts down as
	// on SIGTERM (n8n stops its task runner), killed with its group if that takes too long; a task
	// runner or worker thread is left to its main process, and exits by itself if still here.
	let connected = false;
	socket.on('connect', () => (connected = true));
	socket.on('close', () => {
		if (!connected) return;
		const { isMainThread } = require('node:worker_threads');
		const main = !config.role && isMainThread;
		const end = setTimeout(() => {
			try {
				process.kill(main ? -process.pid : process.pid, 'SIGKILL');
			} catch {
				process.kill(process.pid, 'SIGKILL');
			}
		}, ORPHAN_GRACE_MS);
		end.unref();
		if (main) process.kill(process.pid, 'SIGTERM');
	});
	let pending = '';
	socket.on('data', (chunk) => {
		pending += chunk.toString();
		let end;
		while ((end = pending.indexOf('\n')) >= 0) {
			const message = JSON.parse(pending.slice(0, end));
			pending = pending.slice(end + 1);
			void handle(message);
		}
	});
	async function handle(message) {
		if (typeof message.offset === 'number') offset = message.offset;
		let resumed;
		if (message.resume) resumed = await resume(message.resume).catch((e) => String(e));
		const timedOut = message.timeOut ? timeOut(message.timeOut) : undefined;
		socket.write(
			`${JSON.stringify({
				seq: message.seq,
				pid: process.pid,
				role: `${config.role || 'main'}${require('node:worker_threads').isMainThread ? '' : ' (worker thread)'}`,
				now: Date.now(),
				...state,
				tracking: tracker !== undefined,
				...(resumed !== undefined ? { resumed } : {}),
				...(timedOut !== undefined ? { timedOut } : {}),
			})}\n`,
		);
	}
}
