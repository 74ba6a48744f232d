import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations.cjs';

export type Db = Database.Database;

/** Another process holds the database file. */
export class DatabaseInUseError extends Error {
	constructor(readonly file: string) {
		super(
			`The database file ${file} is in use by another reference server. Stop that server, or start this one with another --db (or --db :memory:).`,
		);
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
	const db = new Database(file);
	if (onDisk) db.pragma('locking_mode = EXCLUSIVE');
	try {
		db.pragma('journal_mode = WAL');
		// The first write takes the exclusive lock, or fails at once when another process holds it.
		if (onDisk) db.exec('BEGIN EXCLUSIVE; COMMIT');
	} catch (error) {
		db.close();
		if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY'))
			throw new DatabaseInUseError(file);
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
	db.pragma('synchronous = NORMAL');
	db.pragma('foreign_keys = ON');
	db.pragma('busy_timeout = 5000');
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
	const current = db.pragma('user_version', { simple: true }) as number;
	if (current > MIGRATIONS.length) {
		throw new Error(
			`The database schema (version ${current}) is newer than this server knows (${MIGRATIONS.length}). Use a newer server or another --db file.`,
		);
	}
	for (let version = current; version < MIGRATIONS.length; version++) {
		db.transaction(() => {
			db.exec(MIGRATIONS[version]);
			db.pragma(`user_version = ${version + 1}`);
		})();
	}
}

const statements = new WeakMap<Db, Map<string, Database.Statement>>();

/** Prepared statements are compiled once per database and SQL text (preparing is costly). */
export function sql(db: Db, text: string): Database.Statement {
	let cache = statements.get(db);
	if (!cache) statements.set(db, (cache = new Map<string, Database.Statement>()));
	let statement = cache.get(text);
	if (!statement) cache.set(text, (statement = db.prepare(text)));
	return statement;
}
