#!/bin/sh
# What n8n's image entrypoint does: trust extra CA certificates when a folder of them is mounted,
# then run n8n with the container's arguments (none: `n8n`, which starts the main instance).
# First, what only this stand-in needs: the n8n app mounted at /opt/n8n-app (see n8n.Containerfile).
app=/opt/n8n-app/node_modules/n8n/package.json
if [ ! -f "$app" ]; then
	echo "This local stand-in for n8n's image runs the n8n app mounted at /opt/n8n-app: mount an installed n8n $N8N_STAND_IN_VERSION app's folder there (podman run -v <app>:/opt/n8n-app:ro; test/compose/stack.cts does)." >&2
	exit 1
fi
mounted="$(node -p "require('$app').version")"
if [ "$mounted" != "$N8N_STAND_IN_VERSION" ]; then
	echo "This stand-in is n8n $N8N_STAND_IN_VERSION's image, but the app mounted at /opt/n8n-app is n8n $mounted: mount the n8n $N8N_STAND_IN_VERSION app." >&2
	exit 1
fi
if [ -d /opt/custom-certificates ]; then
	echo "Trusting custom certificates from /opt/custom-certificates."
	export NODE_OPTIONS="--use-openssl-ca ${NODE_OPTIONS:-}"
	export SSL_CERT_DIR=/opt/custom-certificates
	c_rehash /opt/custom-certificates
fi
exec n8n "$@"
