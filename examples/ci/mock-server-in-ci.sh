#!/usr/bin/env bash
# The reference server in a CI job: install it, start it from a seed, wait until it answers, run
# the workflow under test, check the request journal, stop. Copy it into your pipeline and set:
#   $1 / MOCK_SERVER_PACKAGE  what to install: "lead-inbox-mock-server" from the registry, or a .tgz
#   $2 / MOCK_SEED            the seed file, relative to where you run the script
#                             (default: examples/seed.json, as in this repository)
#   WORKFLOW_CMD              the command that runs your workflow, e.g. "n8n execute --id=..."
#                             (default: a lead search with the seed's key, standing in for one)
#   MOCK_SERVER_BIN           an already installed lead-inbox-mock-server (skips the install)
#   MOCK_PORT, MOCK_ADMIN_TOKEN
set -euo pipefail
package="${1:-${MOCK_SERVER_PACKAGE:-lead-inbox-mock-server}}"
seed="${2:-${MOCK_SEED:-examples/seed.json}}"
# The seed is the caller's file: found from the directory the script is run in, wherever the
# script itself lives, and checked before anything is installed.
if [ ! -f "$seed" ]; then
	echo "seed file not found: $seed (from $PWD); pass it as the second argument or in MOCK_SEED" >&2
	exit 1
fi
seed=$(cd "$(dirname "$seed")" && pwd)/$(basename "$seed")
port="${MOCK_PORT:-4010}"
admin_token="${MOCK_ADMIN_TOKEN:-ci-admin-token-0001}"
base="http://127.0.0.1:$port"
work=$(mktemp -d)

# 1. Install (Node.js 22.13+; nothing native to compile, any npm).
bin="${MOCK_SERVER_BIN:-}"
if [ -z "$bin" ]; then
	npm install --prefix "$work" --no-audit --no-fund --loglevel=error "$package" >/dev/null
	bin="$work/node_modules/.bin/lead-inbox-mock-server"
fi

# 2. Start from the seed, on a database of this job's own. The installed bin runs as this PID
#    itself (npx would start it as a child that outlives a kill of npx).
"$bin" --port "$port" --db "$work/mock.sqlite" --seed "$seed" --admin-token "$admin_token" \
	--log off >"$work/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

# 3. Wait until it answers (what wait-on does), and stop waiting at once if it exited.
for _ in $(seq 1 100); do
	curl -fs "$base/healthz" >/dev/null 2>&1 && break
	if ! kill -0 "$server" 2>/dev/null; then
		echo "the server exited before it was ready:"
		cat "$work/server.log"
		exit 1
	fi
	sleep 0.1
done
curl -fs "$base/healthz" >/dev/null || { echo "the server did not start:"; cat "$work/server.log"; exit 1; }

# 4. Run the workflow under test.
if [ -n "${WORKFLOW_CMD:-}" ]; then
	bash -c "$WORKFLOW_CMD"
else
	curl -fs -X POST "$base/api/v1/niche-finder-leads" \
		-H 'Authorization: Bearer lik_ci_demo_key_0001' -H 'Content-Type: application/json' \
		-d '{"niche":"dentist","city":"Austin, TX","count":3}' >/dev/null
fi

# 5. Assert on the journal: what did the workflow call, and how did it go?
searches=$(curl -fs -H "Authorization: Bearer $admin_token" \
	"$base/__admin/requests?method=POST&path=/api/v1/niche-finder-leads&status=200" |
	node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).requests.length))')
if [ "$searches" -lt 1 ]; then
	echo "expected at least one successful lead search, the journal has $searches"
	exit 1
fi
echo "ok: $searches lead search(es) answered 200"
