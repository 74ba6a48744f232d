#!/bin/sh
# The n8n service's entry (compose.yaml): installs the Lead Inbox nodes into ~/.n8n/nodes the way
# n8n installs a community package, imports a Lead Inbox API credential for the reference server
# (once: a marker in the n8n-data volume), then hands over to the image's own entrypoint.
set -eu
nodes="$HOME/.n8n/nodes"
marker="$HOME/.n8n/.lead-inbox-ready"
if [ ! -f "$marker" ]; then
	mkdir -p "$nodes"
	cd "$nodes"
	[ -f package.json ] || echo '{"name":"installed-nodes","private":true}' >package.json
	echo "lead-inbox: installing $LEAD_INBOX_NODES into $nodes"
	npm install --omit=peer --omit=dev --no-audit --no-fund "$LEAD_INBOX_NODES"
	cat >/tmp/lead-inbox-credential.json <<JSON
[{"id":"leadInboxCompose","name":"Lead Inbox (reference server)","type":"leadInboxApi",
  "data":{"apiKey":"$LEAD_INBOX_DEV_KEY","leadsBaseUrl":"$LEAD_INBOX_URL","inboxBaseUrl":"$LEAD_INBOX_URL/api/v1"}}]
JSON
	n8n import:credentials --input=/tmp/lead-inbox-credential.json
	rm -f /tmp/lead-inbox-credential.json
	touch "$marker"
fi
exec tini -- /docker-entrypoint.sh "$@"
