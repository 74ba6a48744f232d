import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { MIGRATIONS } from './migrations.cjs';

/** Another process holds the database file. */
export class DatabaseInUseError extends Error {
	constructor(readonly file: string) {
		super(
			`The database file ${file} is in use by another reference server. Stop that server, or start this one with another --db (or --db :memory:).`,
		);
	}
}

/** SQLite's result code for "the database file is locked" (another connection holds it). */
const SQLITE_BUSY = 5;

/**
 * Node's built-in SQLite (node:sqlite, Node >= 22.13): no native module to compile or download, so
 * every npm (12 blocks unapproved install scripts) and every image installs the server as it is.
 * This wraps the connection with what the repositories need: statements compiled once, and
 * transactions that nest (an inner one becomes a savepoint).
 */
export class Db {
	private readonly statements = new Map<string, StatementSync>();
	private depth = 0;
	private closed = false;

	constructor(readonly connection: DatabaseSync) {}

	/** The statement for this SQL text, compiled on first use (preparing is costly). */
	statement(text: string): StatementSync {
		let statement = this.statements.get(text);
		if (!statement) this.statements.set(text, (statement = this.connection.prepare(text)));
		return statement;
	}

	exec(text: string): void {
		this.connection.exec(text);
	}

	/** Runs `work` in one transaction: all of its writes are kept, or none when it throws. */
	transaction<T>(work: () => T): T {
		const savepoint = `nested_${this.depth}`;
		this.exec(this.depth === 0 ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${savepoint}`);
		this.depth++;
		try {
			const result = work();
			this.exec(this.depth === 1 ? 'COMMIT' : `RELEASE ${savepoint}`);
			return result;
		} catch (error) {
			// A failed COMMIT (a full disk) may have ended the transaction already: roll back only
			// what is still open, and throw the first error, which says why.
			try {
				this.exec(this.depth === 1 ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
			} catch {
				// Nothing left to roll back.
			}
			throw error;
		} finally {
			this.depth--;
		}
	}

	get open(): boolean {
		return !this.closed;
	}

	close(): void {
		if (this.closed) return;
		this.closed = true;
		this.statements.clear();
		this.connection.close();
	}
}

/**
 * Opens (creating when needed) the embedded database and brings its schema up to date. A file
 * database is held with SQLite's exclusive lock for the life of the process: two servers on one
 * file would each serve their own cached pages, and the operating system releases the lock even
 * when a server is killed.
 */
export function openDatabase(file: string): Db {
	const onDisk = file !== ':memory:';
	if (onDisk) prepareFile(file);
	const db = new Db(new DatabaseSync(file));
	try {
		if (onDisk) db.exec('PRAGMA locking_mode = EXCLUSIVE');
		db.exec('PRAGMA journal_mode = WAL');
		// The first write takes the exclusive lock, or fails at once when another process holds it.
		if (onDisk) db.exec('BEGIN EXCLUSIVE; COMMIT');
	} catch (error) {
		db.close();
		if ((error as { errcode?: number }).errcode === SQLITE_BUSY) throw new DatabaseInUseError(file);
		throw error;
	}
	// The files hold contacts, mail hosts, user names and encrypted passwords: owner only.
	if (onDisk)
		for (const path of [file, `${file}-wal`, `${file}-shm`])
			try {
				chmodSync(path, 0o600);
			} catch {
				// The -shm file does not exist with an exclusive lock; nothing to protect.
			}
	db.exec('PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000');
	migrate(db);
	return db;
}

/** A database path that cannot be used, said with the path and how to fix it. */
export class DatabasePathError extends Error {}

const kindOf = (path: string) => {
	try {
		return statSync(path).isDirectory() ? 'folder' : 'file';
	} catch {
		return undefined;
	}
};

/**
 * Checks the path and creates its missing folders one level at a time (Node's recursive mkdir
 * spins forever under /proc), so every problem is one clear error.
 */
function prepareFile(file: string): void {
	const fix = 'Pass --db (or MOCK_DB) a file path in a writable folder, or --db :memory:.';
	if (kindOf(file) === 'folder')
		throw new DatabasePathError(`The database path ${file} is a folder, not a file. ${fix}`);
	const missing: string[] = [];
	let folder = dirname(file);
	while (kindOf(folder) === undefined && dirname(folder) !== folder) {
		missing.unshift(folder);
		folder = dirname(folder);
	}
	if (kindOf(folder) === 'file')
		throw new DatabasePathError(
			`The database path ${file} is under ${folder}, which is a file, not a folder. ${fix}`,
		);
	for (const level of missing)
		try {
			mkdirSync(level);
		} catch (error) {
			throw new DatabasePathError(
				`Cannot create the folder ${level} for the database ${file}: ${(error as Error).message}. ${fix}`,
			);
		}
}

function migrate(db: Db): void {
	const current = scalar(db, 'PRAGMA user_version') as number;
	if (current > MIGRATIONS.length) {
		throw new Error(
			`The database schema (version ${current}) is newer than this server knows (${MIGRATIONS.length}). Use a newer server or another --db file.`,
		);
	}
	for (let version = current; version < MIGRATIONS.length; version++) {
		db.transaction(() => {
			db.exec(MIGRATIONS[version]);
			db.exec(`PRAGMA user_version = ${version + 1}`);
		});
	}
}

/** The prepared statement for this SQL text on this database. */
export const sql = (db: Db, text: string): StatementSync => db.statement(text);

/** The first column of the first row (a COUNT, an id), or undefined when there is no row. */
export function scalar(db: Db, text: string, ...params: SQLInputValue[]): unknown {
	const row = db.statement(text).get(...params);
	return row && Object.values(row)[0];
}

/** The first column of every row. */
export const column = (db: Db, text: string, ...params: SQLInputValue[]): unknown[] =>
	db
		.statement(text)
		.all(...params)
		.map((row) => Object.values(row)[0]);
