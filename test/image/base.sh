#!/usr/bin/env bash
# Makes a local base image of the same shape as the official node:<major>-bookworm-slim (no image
# can be pulled on the project's machines): Debian bookworm from debootstrap, the Node.js of that
# major (test/helpers/install-node.sh, from the npm registry; without an argument, the one on PATH)
# in /usr/local/bin with npm and its headers, a `node` user (uid 1000). Prints the image's name.
# Cached: the rootfs tarball in ~/.cache, the image in podman's store; a second run returns at once.
#   base.sh [NODE_MAJOR]
set -euo pipefail
CACHE="${IMAGE_TEST_CACHE:-$HOME/.cache/n8n-nodes-lead-inbox/image}"
if [ -n "${1:-}" ]; then
	node_bin="$(bash "$(dirname "$0")/../helpers/install-node.sh" "$1")/node"
else
	node_bin="$(readlink -f "$(command -v node)")"
fi
major="$("$node_bin" -p 'process.versions.node.split(".")[0]')"
name="localhost/node:${major}-bookworm-slim"
podman() { command podman --runtime runc "$@" 9>&-; } # the lock below is not theirs to hold

# One run at a time (suites running side by side may all need the base); the next finds it built.
mkdir -p "$CACHE"
exec 9>"$CACHE/base.lock"
flock 9
if podman image exists "$name" 2>/dev/null; then echo "$name"; exit 0; fi

tarball="$CACHE/bookworm-minbase.tar"
if [ ! -f "$tarball" ]; then
	rootfs="$(mktemp -d)"
	echo "image: debootstrap bookworm (minbase) into $rootfs" >&2
	debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >"$CACHE/debootstrap.log" 2>&1 \
		|| { tail -20 "$CACHE/debootstrap.log" >&2; exit 1; }
	rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
	tar -C "$rootfs" -cf "$tarball.partial" .
	mv "$tarball.partial" "$tarball"
	rm -rf "$rootfs"
fi

# The official image's layout: node, npm and npx in /usr/local/bin, npm's package in
# /usr/local/lib/node_modules, headers in /usr/local/include/node, a `node` user and group.
npm_dir="$(dirname "$(readlink -f "$(command -v npm)")")/.."
headers="$(dirname "$node_bin")/../include/node"
layer="$(mktemp -d)"
trap 'rm -rf "$layer"' EXIT
mkdir -p "$layer/usr/local/bin" "$layer/usr/local/lib/node_modules" "$layer/usr/local/include"
cp "$node_bin" "$layer/usr/local/bin/node"
cp -r "$(readlink -f "$npm_dir")" "$layer/usr/local/lib/node_modules/npm"
cp -r "$(readlink -f "$headers")" "$layer/usr/local/include/node"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$layer/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$layer/usr/local/bin/npx"
# Where this machine reaches the npm registry through a TLS proxy that only its own CA bundle
# trusts, the base carries that bundle, as a company's base image would.
ca_env=""
if [ -f "${NODE_EXTRA_CA_CERTS:-}" ]; then
	mkdir -p "$layer/etc/ssl/certs"
	cp "$NODE_EXTRA_CA_CERTS" "$layer/etc/ssl/certs/host-ca.crt"
	ca_env="ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/host-ca.crt"
else
	mkdir -p "$layer/etc"
fi
cat >"$layer/Containerfile" <<CONTAINERFILE
FROM localhost/debian:bookworm-minbase
COPY usr /usr
COPY etc /etc
$ca_env
RUN groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
CMD ["node"]
CONTAINERFILE
podman image exists localhost/debian:bookworm-minbase || podman import "$tarball" localhost/debian:bookworm-minbase >&2
podman build --network host -t "$name" "$layer" >&2
echo "$name"
