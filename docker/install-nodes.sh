#!/bin/sh
# Installs the Lead Inbox nodes kept in the image (/opt/lead-inbox/package/*.tgz) into n8n's
# community-node folder, ~/.n8n/nodes, the way n8n installs a community package (npm, no peer or
# dev dependencies: n8n provides n8n-workflow), and notes which package it was. Run as `node`: at
# build time, and by the entrypoint when a volume holds other Lead Inbox nodes than the image's.
# Other community packages in the folder stay installed. The build's install leaves what npm looked
# up in the image's npm cache, so the entrypoint's install (with --offline) needs no network.
set -eu
package="$(ls /opt/lead-inbox/package/*.tgz)"
nodes="$HOME/.n8n/nodes"
mkdir -p "$nodes"
cd "$nodes"
[ -f package.json ] || echo '{"name":"installed-nodes","private":true}' >package.json
npm install "$@" --omit=peer --omit=dev --no-audit --no-fund --loglevel=error "$package"
sha256sum "$package" | cut -d' ' -f1 >.lead-inbox-nodes.sha256
echo "lead-inbox: $(node -p 'const p=require("n8n-nodes-lead-inbox/package.json"); p.name+" "+p.version') installed in $nodes"
