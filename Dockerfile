# The project's two images, built from this checkout (no published package needed):
#
#   n8n with the Lead Inbox nodes built in (the default target; queue mode needs the nodes on every
#   worker, so they belong in the image):
#     docker build -t n8n-lead-inbox .
#     docker build --build-arg N8N_VERSION=2.8.4 -t n8n-lead-inbox:2.8.4 .   (an older n8n line)
#   the reference server:
#     docker build --target mock-server -t lead-inbox-mock-server .
#
# Build arguments: N8N_VERSION (n8n's image tag); LEAD_INBOX_NODES (`checkout`, the default: the
# nodes of this clone, or an npm spec such as n8n-nodes-lead-inbox@0.2.0 to install the published
# nodes instead); N8N_IMAGE and NODE_IMAGE (other registries or mirrors of the same images).
ARG NODE_IMAGE=node:22-bookworm-slim
ARG N8N_IMAGE=docker.n8n.io/n8nio/n8n
ARG N8N_VERSION=2.40.7

# The packages, built and packed as a release packs them: the nodes (n8n-node build), the server
# (its bundle) and the workflow test runner it depends on (n8n-testkit, its bundle). Every build
# tool at the version the lockfile pins; no install scripts run
# (nothing native is needed to build).
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# The runner's manifest too: the root links it (file:n8n-testkit), and npm reads it to install.
COPY n8n-testkit/package.json n8n-testkit/
RUN --mount=type=cache,target=/root/.npm \
	npm install --ignore-scripts --no-audit --no-fund --loglevel=error
COPY . .
RUN npm run build --silent \
	&& npm run build:server --silent \
	&& mkdir /packages \
	&& node n8n-testkit/build.cjs \
	&& npm pack --ignore-scripts --silent --pack-destination /packages \
	&& (cd mock-server && npm pack --ignore-scripts --silent --pack-destination /packages) \
	&& (cd n8n-testkit && npm pack --ignore-scripts --silent --pack-destination /packages)

# The server's root file system, assembled on the Node base and copied alone into an empty image:
# the runtime packages (plain JavaScript: the store is Node's built-in node:sqlite, so no compiler
# and no install script), the `node` binary and bash (the health check) with the shared libraries
# `ldd` says they load, a passwd entry for uid 1000, /tmp and /data. No shell tools, no apt, no npm
# in the image: 150 MB where the slim base made it 350, and less for an attacker to use.
FROM ${NODE_IMAGE} AS mock-server-rootfs
COPY --from=build /packages/lead-inbox-mock-server-*.tgz /packages/n8n-testkit-*.tgz /tmp/
COPY docker/mock-server-healthcheck.sh /tmp/
RUN set -eu; \
	root=/rootfs; \
	mkdir -p "$root/app"; \
	tar -xzf /tmp/lead-inbox-mock-server-*.tgz -C "$root/app" --strip-components=1; \
	# The runner the server depends on, from this checkout's tarball (its version may not be on npm yet).
	(cd "$root/app" && npm install --omit=dev --ignore-scripts --no-package-lock --no-audit --no-fund --loglevel=error /tmp/n8n-testkit-*.tgz); \
	npm cache clean --force; \
	for binary in "$(command -v node)" /bin/bash; do \
		cp --parents -L "$binary" "$root"; \
		for library in $(ldd "$binary" | grep -o '/[^ ]*'); do cp --parents -L "$library" "$root"; done; \
	done; \
	install -D -m 755 /tmp/mock-server-healthcheck.sh "$root/usr/local/bin/lead-inbox-healthcheck"; \
	mkdir -p "$root/etc" "$root/tmp" "$root/data"; \
	chmod 1777 "$root/tmp"; \
	chown 1000:1000 "$root/data"; \
	printf 'root:x:0:0:root:/root:/sbin/nologin\nnode:x:1000:1000:node:/tmp:/sbin/nologin\n' >"$root/etc/passwd"; \
	printf 'root:x:0:\nnode:x:1000:\n' >"$root/etc/group"

FROM scratch AS mock-server
LABEL org.opencontainers.image.title="lead-inbox-mock-server" \
	org.opencontainers.image.description="Reference server of the lead search and inbox management services (n8n-nodes-lead-inbox)" \
	org.opencontainers.image.licenses="MIT" \
	org.opencontainers.image.source="https://github.com/n8n-nodes-lead-inbox/n8n-nodes-lead-inbox"
# Owned by root, read-only for the server; its data lives in the /data volume, owned by `node`.
COPY --from=mock-server-rootfs /rootfs /
USER 1000:1000
# Every CLI option is also a MOCK_* variable (mock-server/README.md); these are the image's
# defaults. 0.0.0.0 on purpose: inside the container, loopback is not reachable from the host.
# The dev key and admin token are generated once per database (printed at start, kept in /data);
# set MOCK_DEV_KEY / MOCK_ADMIN_TOKEN at run time to choose them, never in the image.
# MOCK_READY_FILE: the server writes the URL it listens on there, so the health check follows
# --port and --host (flags after the image name, or MOCK_* variables) however they were set.
ENV PATH=/usr/local/bin:/bin \
	NODE_ENV=production \
	MOCK_HOST=0.0.0.0 \
	MOCK_PORT=4010 \
	MOCK_DB=/data/mock-server.sqlite \
	MOCK_READY_FILE=/tmp/lead-inbox-mock-server.url
VOLUME /data
EXPOSE 4010
# Every second, so a client waiting on the engine's health status (Testcontainers, compose's
# service_healthy) sees "healthy" within about a second of readiness. The check is a bash script
# (a few milliseconds, no Node process). Not --start-interval: builders older than Docker Engine 25
# (buildah 1.28, Debian 12's podman) refuse the flag and the build.
HEALTHCHECK --interval=1s --timeout=2s --start-period=60s --retries=3 \
	CMD ["/usr/local/bin/lead-inbox-healthcheck"]
# Node as PID 1: the server handles SIGTERM itself (in-flight requests finish, the database closes).
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "/app/dist/lead-inbox-mock-server"]

# n8n's official image with the nodes installed as n8n installs a community package: into
# /home/node/.n8n/nodes, as the `node` user. The package also stays in /opt/lead-inbox, so that a
# /home/node/.n8n volume made by an older image (or an empty bind mount) is brought up to this
# image's nodes when the container starts (docker/n8n-entrypoint.sh).
FROM ${N8N_IMAGE}:${N8N_VERSION} AS n8n
ARG N8N_VERSION
ARG LEAD_INBOX_NODES=checkout
LABEL org.opencontainers.image.title="n8n-lead-inbox" \
	org.opencontainers.image.description="n8n ${N8N_VERSION} with the Lead Inbox community nodes (n8n-nodes-lead-inbox) built in" \
	org.opencontainers.image.licenses="MIT" \
	org.opencontainers.image.source="https://github.com/n8n-nodes-lead-inbox/n8n-nodes-lead-inbox"
USER root
COPY --from=build /packages/n8n-nodes-lead-inbox-*.tgz /tmp/checkout/
COPY docker/install-nodes.sh docker/n8n-entrypoint.sh docker/healthcheck.js /opt/lead-inbox/
RUN set -eu; \
	mkdir -p /opt/lead-inbox/package; \
	if [ -n "$LEAD_INBOX_NODES" ] && [ "$LEAD_INBOX_NODES" != checkout ]; then \
		cd /opt/lead-inbox/package; \
		npm pack --loglevel=error "$LEAD_INBOX_NODES" >/dev/null || { \
			echo "LEAD_INBOX_NODES=$LEAD_INBOX_NODES cannot be fetched from the npm registry (see npm's error above). Give a published version (npm view n8n-nodes-lead-inbox versions), or set LEAD_INBOX_NODES=checkout (the default) to build the nodes from this clone." >&2; \
			exit 1; }; \
	else \
		mv /tmp/checkout/*.tgz /opt/lead-inbox/package/; \
	fi; \
	rm -rf /tmp/checkout /root/.npm; \
	chmod 755 /opt/lead-inbox/*.sh; chmod 644 /opt/lead-inbox/healthcheck.js
USER node
RUN /opt/lead-inbox/install-nodes.sh
ENTRYPOINT ["tini", "--", "/opt/lead-inbox/n8n-entrypoint.sh"]
