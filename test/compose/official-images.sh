#!/usr/bin/env bash
# Makes local stand-ins for the official images the compose stacks name, which cannot be pulled on
# the project's machines, tagged with those very names so compose.yaml and compose.queue.yaml run
# unchanged (podman looks in its own store first):
#   docker.n8n.io/n8nio/n8n:<version>  n8n's image on the Node.js its official image runs
#                                      (test/e2e/n8n-node-line.sh), running the installed n8n app
#                                      mounted at /opt/n8n-app (official-images/n8n.Containerfile)
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

for version in "${versions[@]}"; do
	n8n_image="docker.n8n.io/n8nio/n8n:$version"
	# A stand-in of an earlier kind (n8n copied into the image) is made again as this kind.
	if podman image exists "$n8n_image" &&
		[ "$(podman image inspect --format '{{index .Config.Labels "lead-inbox.stand-in"}}' "$n8n_image")" != app-mounted ]; then
		podman untag "$n8n_image" # the images built on it keep it
	fi
	# The n8n app the e2e suite installs (installed here if that suite has not run yet): the
	# stacks mount it into the stand-in (test/compose/stack.cts).
	bash "$ROOT/test/e2e/install-n8n.sh" "$version" >&2
	node_base="$(bash "$ROOT/test/image/base.sh" "$(bash "$ROOT/test/e2e/n8n-node-line.sh" "$version")")"
	build "$n8n_image" "$HERE/official-images/n8n.Containerfile" "$HERE/official-images" "$node_base" "$version"
done
