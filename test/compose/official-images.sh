#!/usr/bin/env bash
# Makes local stand-ins for the official images the compose stacks name, which cannot be pulled on
# the project's machines, tagged with those very names so compose.yaml and compose.queue.yaml run
# unchanged (podman looks in its own store first):
#   docker.n8n.io/n8nio/n8n:$N8N_VERSION  n8n's Debian image, from the installed n8n app
#   docker.io/library/postgres:15, docker.io/library/redis:7  from Debian's packages
# all on the local Debian base (test/image/base.sh). Cached in podman's store: a second run
# returns at once. Prints nothing but progress.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$HERE/../.."
N8N_VERSION="${N8N_VERSION:-2.8.4}"
CACHE="${N8N_E2E_CACHE:-$HOME/.cache/n8n-nodes-lead-inbox}"
podman() { command podman --runtime runc "$@"; }

base="$(bash "$ROOT/test/image/base.sh")"
build() { # name, Containerfile, context
	podman image exists "$1" && return 0
	echo "compose: building a local stand-in for $1" >&2
	podman build --format docker --network host --build-arg "BASE_IMAGE=$base" \
		--build-arg "N8N_VERSION=$N8N_VERSION" -t "$1" -f "$2" "$3" >&2
}

build docker.io/library/postgres:15 "$HERE/official-images/postgres.Containerfile" "$HERE/official-images"
build docker.io/library/redis:7 "$HERE/official-images/redis.Containerfile" "$HERE/official-images"

n8n_image="docker.n8n.io/n8nio/n8n:$N8N_VERSION"
if ! podman image exists "$n8n_image"; then
	# The n8n app the e2e suite installs (installed here if that suite has not run yet), hard-linked
	# into a build context beside the entrypoint: no copy of its 2.3 GB before the image's own.
	bash "$ROOT/test/e2e/install-n8n.sh" "$N8N_VERSION" >&2
	context="$(mktemp -d "$CACHE/n8n-image-context.XXXXXX")"
	trap 'rm -rf "$context"' EXIT
	cp -al "$CACHE/n8n-$N8N_VERSION" "$context/app"
	rm -f "$context/app/.installed"
	cp "$HERE/official-images/n8n-entrypoint.sh" "$context/docker-entrypoint.sh"
	build "$n8n_image" "$HERE/official-images/n8n.Containerfile" "$context"
fi
