#!/usr/bin/env bash
# The composite action's one step (mock-server/action.yml): start the server, or stop it.
# A composite action has no post step, so stopping is either this script with INPUT_STOP=true
# (a last `if: always()` step), or the runner's own clean-up of a job's processes at its end.
set -euo pipefail
state="${RUNNER_TEMP:-/tmp}/lead-inbox-mock-server"

if [ "${INPUT_STOP:-false}" = "true" ]; then
	pid=$(cat "$state/server.pid" 2>/dev/null || true)
	if [ -z "$pid" ]; then
		echo "::warning::No lead-inbox-mock-server was started in this job; nothing to stop."
		exit 0
	fi
	if kill -0 "$pid" 2>/dev/null; then
		# The server leads its own process group: npm or a wrapper in between goes too.
		kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid"
		for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL -- "-$pid" 2>/dev/null || true
		echo "lead-inbox-mock-server (pid $pid) stopped."
	else
		echo "::warning::lead-inbox-mock-server (pid $pid) had already exited."
	fi
	echo "::group::Server log"
	cat "$state/server.log" 2>/dev/null || true
	echo "::endgroup::"
	rm -f "$state/server.pid"
	exit 0
fi

mkdir -p "$state"
random() { node -e "process.stdout.write(require('node:crypto').randomBytes(18).toString('base64url'))"; }
# What to install: one spec or several, space-separated (the server's tarball with the workflow test
# runner's, n8n-testkit, which it depends on, before both are on the registry). A packed tarball
# named relative to the workspace (npm would read "x.tgz" as a package name).
read -r -a packages <<<"${INPUT_PACKAGE:-lead-inbox-mock-server}"
for i in "${!packages[@]}"; do
	case "${packages[$i]}" in
	*.tgz | *.tar.gz) [ "${packages[$i]#/}" = "${packages[$i]}" ] && packages[i]="$PWD/${packages[$i]}" ;;
	esac
done
package="${packages[*]}"

# With tests: the workflow tests run in real n8n (each test file starts a server of its own).
if [ -n "${INPUT_TESTS:-}" ]; then
	echo "Installing $package..."
	npm install --prefix "$state/install" --no-audit --no-fund --loglevel=error "${packages[@]}" >/dev/null
	read -r -a tests <<<"$INPUT_TESTS"
	exec "$state/install/node_modules/.bin/lead-inbox-mock-server" test "${tests[@]}" --n8n "${INPUT_N8N:-2.40.7}" \
		${INPUT_NODES:+--nodes "$INPUT_NODES"} ${INPUT_JUNIT:+--junit "$INPUT_JUNIT"} \
		${INPUT_REPORT:+--report "$INPUT_REPORT"} $([ "${INPUT_SHOW:-false}" = true ] && echo --show)
fi

seed="${INPUT_SEED:-}"
if [ -n "$seed" ]; then
	[ "${seed#/}" = "$seed" ] && seed="$PWD/$seed"
	[ -f "$seed" ] || { echo "::error::The seed file $seed does not exist (the seed input is relative to the workspace)."; exit 1; }
fi
api_key="${INPUT_API_KEY:-lik_ci_$(random)}"
admin_token="${INPUT_ADMIN_TOKEN:-adm_$(random)}"
echo "::add-mask::$api_key"
echo "::add-mask::$admin_token"

echo "Installing $package..."
npm install --prefix "$state/install" --no-audit --no-fund --loglevel=error "${packages[@]}" >/dev/null
bin="$state/install/node_modules/.bin/lead-inbox-mock-server"

read -r -a extra <<<"${INPUT_ARGS:-}"
# setsid: the server leads a process group of its own, so stopping it stops all of it.
setsid "$bin" --host 127.0.0.1 --port "${INPUT_PORT:-4010}" --db "$state/mock.sqlite" \
	--dev-key "$api_key" --admin-token "$admin_token" --log off \
	${seed:+--seed "$seed"} "${extra[@]}" >"$state/server.log" 2>&1 &
pid=$!
echo "$pid" >"$state/server.pid"

# The banner names the URL (the port may have been 0); then /healthz must answer.
url=""
for _ in $(seq 1 300); do
	if ! kill -0 "$pid" 2>/dev/null; then
		echo "::error::lead-inbox-mock-server exited before it was ready:"
		cat "$state/server.log"
		exit 1
	fi
	url=$(sed -n 's/^Lead Inbox reference server listening on \(http:[^ ]*\).*/\1/p' "$state/server.log" | head -n 1)
	[ -n "$url" ] && curl -fs "$url/healthz" >/dev/null 2>&1 && break
	url=""
	sleep 0.1
done
if [ -z "$url" ]; then
	echo "::error::lead-inbox-mock-server did not answer /healthz within 30 s:"
	cat "$state/server.log"
	kill -KILL -- "-$pid" 2>/dev/null || true
	exit 1
fi

{
	echo "url=$url"
	echo "leads-base-url=$url"
	echo "inbox-base-url=$url/api/v1"
	echo "api-key=$api_key"
	echo "admin-token=$admin_token"
	echo "pid=$pid"
} >>"$GITHUB_OUTPUT"
{
	echo "LEAD_INBOX_URL=$url"
	echo "LEAD_INBOX_LEADS_BASE_URL=$url"
	echo "LEAD_INBOX_INBOX_BASE_URL=$url/api/v1"
	echo "LEAD_INBOX_API_KEY=$api_key"
	echo "LEAD_INBOX_ADMIN_TOKEN=$admin_token"
	echo "LEAD_INBOX_PID=$pid"
} >>"$GITHUB_ENV"
echo "lead-inbox-mock-server is listening on $url (pid $pid)."
