#!/usr/bin/env bash
# What the image and compose suites need on a Debian machine that has none of it: podman with runc
# (crun fails on hybrid cgroups), podman-compose for the compose stacks, the CNI dnsname plugin (a
# compose service reaches another by its name, as on Docker's networks) and debootstrap for the
# local base. Quiet when all is there.
set -euo pipefail
need=()
for tool in podman runc debootstrap podman-compose; do command -v "$tool" >/dev/null 2>&1 || need+=("$tool"); done
[ -x /usr/lib/cni/dnsname ] || need+=(dnsname)
[ ${#need[@]} -eq 0 ] && exit 0
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
echo "image: installing podman, podman-compose, runc, dnsname and debootstrap (missing: ${need[*]})" >&2
export DEBIAN_FRONTEND=noninteractive
as_root apt-get update -qq
as_root apt-get install -y -qq --no-install-recommends podman podman-compose buildah debootstrap runc uidmap slirp4netns fuse-overlayfs \
	golang-github-containernetworking-plugin-dnsname dnsmasq-base >/dev/null
