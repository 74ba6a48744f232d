#!/bin/sh
# What n8n's image entrypoint does: trust extra CA certificates when a folder of them is mounted,
# then run n8n with the container's arguments (none: `n8n`, which starts the main instance).
if [ -d /opt/custom-certificates ]; then
	echo "Trusting custom certificates from /opt/custom-certificates."
	export NODE_OPTIONS="--use-openssl-ca ${NODE_OPTIONS:-}"
	export SSL_CERT_DIR=/opt/custom-certificates
	c_rehash /opt/custom-certificates
fi
exec n8n "$@"
