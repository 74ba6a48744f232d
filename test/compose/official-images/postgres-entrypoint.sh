#!/bin/sh
# The official image's first start, reduced to what compose files rely on: an empty data folder is
# initialised with POSTGRES_USER (default postgres) and POSTGRES_PASSWORD (password logins from the
# network), and POSTGRES_DB (default: the user's name) is created.
set -eu
user="${POSTGRES_USER:-postgres}"
db="${POSTGRES_DB:-$user}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
	: "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}"
	pwfile="$(mktemp)"
	printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
	initdb -D "$PGDATA" --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
	rm -f "$pwfile"
	echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
	echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
	if [ "$db" != postgres ]; then
		echo "CREATE DATABASE \"$db\";" | postgres --single -D "$PGDATA" -j postgres >/dev/null
	fi
	echo "postgres: initialised $PGDATA (user $user, database $db)"
fi
exec "$@"
