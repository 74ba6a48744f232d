#!/usr/bin/env bash
# Makes local stand-ins for the official images the compose stacks name, which cannot be pulled on
# the project's machines, tagged with those very names so compose.yaml and compose.queue.yaml run
# unchanged (podman looks in its own store first):
#   docker.n8n.io/n8nio/n8n:<version>  n8n's image, from the installed n8n app, on the Node.js
#                                      its official image runs (test/e2e/n8n-node-line.sh)
#   docker.io/library/postgres:15, docker.io/library/redis:7  from Debian's packages
# all on local Debian bases (test/image/base.sh). Cached in podman's store: a second run returns at
# once. Prints nothing but progress.
#   official-images.sh [N8N_VERSION...]   (default: the versions the compose suite proves)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$HERE/../.."
CACHE="${N8N_E2E_CACHE:-$HOME/.cache/n8n-nodes-lead-inbox}"
podman() { command podman --runtime runc "$@" 9>&-; } # the lock below is not theirs to hold
# One run at a time: .ci/run's two lanes may both get here (test:compose and test:github); the
# second waits, then finds the images built.
mkdir -p "$CACHE"
exec 9>"$CACHE/official-images.lock"
flock 9
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(2.40.7 2.8.4)

build() { # name, Containerfile, context, base image, n8n version
	podman image exists "$1" && return 0
	echo "compose: building a local stand-in for $1" >&2
	podman build --format docker --network host --build-arg "BASE_IMAGE=$4" \
		--build-arg "N8N_VERSION=${5:-}" -t "$1" -f "$2" "$3" >&2
}

base="$(bash "$ROOT/test/image/base.sh" 22)"

build docker.io/library/postgres:15 "$HERE/official-images/postgres.Containerfile" "$HERE/official-images" "$base"
build docker.io/library/redis:7 "$HERE/official-images/redis.Containerfile" "$HERE/official-images" "$base"

# A build context left by a failed or interrupted build goes too.
context=""
trap 'rm -rf "$context"' EXIT
for version in "${versions[@]}"; do
	n8n_image="docker.n8n.io/n8nio/n8n:$version"
	podman image exists "$n8n_image" && continue
	# The n8n app the e2e suite installs (installed here if that suite has not run yet), its
	# node_modules as /usr/local/lib/node_modules (n8n in /usr/local/lib/node_modules/n8n, where
	# n8n's image has it, and every package resolving its dependencies as in the app), hard-linked
	# into the build context: no copy of its 2.3 GB before the image's own.
	bash "$ROOT/test/e2e/install-n8n.sh" "$version" >&2
	context="$(mktemp -d "$CACHE/n8n-image-context.XXXXXX")"
	cp -al "$CACHE/n8n-$version/node_modules" "$context/node_modules"
	rm -rf "$context/node_modules/.bin" "$context/node_modules/.package-lock.json"
	cp "$HERE/official-images/n8n-entrypoint.sh" "$context/docker-entrypoint.sh"
	node_base="$(bash "$ROOT/test/image/base.sh" "$(bash "$ROOT/test/e2e/n8n-node-line.sh" "$version")")"
	build "$n8n_image" "$HERE/official-images/n8n.Containerfile" "$context" "$node_base" "$version"
	rm -rf "$context"
done
