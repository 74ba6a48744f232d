/**
 * Versioned schema migrations, applied in order inside one transaction each. Never edit a released
 * migration: append a new one. `PRAGMA user_version` records how far a database file has come.
 */
export const MIGRATIONS: string[] = [
	// 1: accounts, keys, contacts, pools, inboxes, inbox quota ledger
	`
	CREATE TABLE accounts (
		id TEXT PRIMARY KEY,
		credits INTEGER NOT NULL CHECK (credits >= 0),
		active INTEGER NOT NULL,
		permissions TEXT NOT NULL,
		is_dev INTEGER NOT NULL DEFAULT 0,
		created_at TEXT NOT NULL
	);
	CREATE TABLE api_keys (
		id TEXT PRIMARY KEY,
		account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
		key_hash TEXT NOT NULL UNIQUE,
		permissions TEXT NOT NULL,
		created_at TEXT NOT NULL
	);
	CREATE TABLE contacts (
		seq INTEGER PRIMARY KEY AUTOINCREMENT,
		account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
		dedup_key TEXT NOT NULL,
		data TEXT NOT NULL,
		created_at TEXT NOT NULL,
		UNIQUE (account_id, dedup_key)
	);
	CREATE TABLE pools (
		id TEXT PRIMARY KEY,
		account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
		name TEXT NOT NULL,
		created_at TEXT NOT NULL
	);
	CREATE INDEX pools_by_account ON pools (account_id, created_at, id);
	CREATE TABLE inboxes (
		id TEXT PRIMARY KEY,
		account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
		pool_id TEXT NOT NULL REFERENCES pools(id) ON DELETE CASCADE,
		email_address TEXT NOT NULL,
		email_lower TEXT NOT NULL,
		status TEXT NOT NULL CHECK (status IN ('active', 'paused', 'deactivated', 'error')),
		daily_sending_limit INTEGER NOT NULL,
		provider TEXT,
		imap_host TEXT NOT NULL,
		imap_port INTEGER NOT NULL,
		imap_username TEXT NOT NULL,
		imap_password_enc TEXT NOT NULL,
		smtp_host TEXT NOT NULL,
		smtp_port INTEGER NOT NULL,
		smtp_username TEXT NOT NULL,
		smtp_password_enc TEXT NOT NULL,
		created_at TEXT NOT NULL,
		UNIQUE (account_id, email_lower)
	);
	CREATE INDEX inboxes_by_account ON inboxes (account_id, created_at, id);
	CREATE INDEX inboxes_by_pool ON inboxes (pool_id, created_at, id);
	CREATE TABLE inbox_quota (
		key_id TEXT NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
		at_ms INTEGER NOT NULL,
		count INTEGER NOT NULL
	);
	CREATE INDEX inbox_quota_by_key ON inbox_quota (key_id, at_ms);
	`,
	// 2: keys are found by a short prefix of their hash, then the full hash is compared in
	// constant time (an index lookup on the full hash would not be constant-time).
	`
	ALTER TABLE api_keys ADD COLUMN key_lookup TEXT;
	UPDATE api_keys SET key_lookup = substr(key_hash, 1, 16);
	CREATE INDEX api_keys_by_lookup ON api_keys (key_lookup);
	`,
	// 3: every change of a stored balance, written in the transaction that makes it (so the entries
	// of an account always add up to its stored balance), and each lead search that saved contacts.
	// Accounts of an older database start from an opening entry of their balance.
	`
	CREATE TABLE ledger (
		seq INTEGER PRIMARY KEY AUTOINCREMENT,
		account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
		at TEXT NOT NULL,
		kind TEXT NOT NULL CHECK (kind IN ('opening', 'grant', 'set', 'charge')),
		delta INTEGER NOT NULL,
		balance INTEGER NOT NULL CHECK (balance >= 0),
		search_id TEXT
	);
	CREATE INDEX ledger_by_account ON ledger (account_id, seq);
	INSERT INTO ledger (account_id, at, kind, delta, balance)
		SELECT id, created_at, 'opening', credits, credits FROM accounts ORDER BY created_at, id;
	CREATE TABLE searches (
		id TEXT PRIMARY KEY,
		account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
		at TEXT NOT NULL,
		request TEXT NOT NULL,
		found INTEGER NOT NULL,
		charged INTEGER NOT NULL,
		duration_ms INTEGER NOT NULL
	);
	CREATE INDEX searches_by_account ON searches (account_id, at, id);
	`,
];
