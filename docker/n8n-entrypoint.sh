#!/bin/sh
# The entrypoint of n8n with the Lead Inbox nodes (Dockerfile, target n8n). Before handing over to
# n8n's own entrypoint with the same arguments (`worker`, `webhook`, none for the main instance):
# 1. ~/.n8n/nodes holds this image's nodes. A /home/node/.n8n volume is filled from the image only
#    when it is first created: a volume made by an older image keeps older nodes, and a bind mount
#    starts empty. The package is reinstalled (offline, from the image) when it differs.
# 2. A Lead Inbox API credential is imported once when LEAD_INBOX_API_KEY is set (with
#    LEAD_INBOX_LEADS_URL and LEAD_INBOX_INBOX_URL: the credential's base URLs, empty for the
#    services' own), so a new instance has one ready. Set it on the main instance only.
set -eu
n8n_dir="$HOME/.n8n"
wanted="$(sha256sum /opt/lead-inbox/package/*.tgz | cut -d' ' -f1)"
if [ "$(cat "$n8n_dir/nodes/.lead-inbox-nodes.sha256" 2>/dev/null || true)" != "$wanted" ]; then
	echo "lead-inbox: $n8n_dir/nodes does not hold this image's Lead Inbox nodes; installing them"
	/opt/lead-inbox/install-nodes.sh --offline
fi

# One mark per database: the same volume pointed at another database imports it there too.
credential_marker="$n8n_dir/.lead-inbox-credential-imported-${DB_TYPE:-sqlite}-${DB_POSTGRESDB_HOST:-}-${DB_POSTGRESDB_DATABASE:-}"
if [ -n "${LEAD_INBOX_API_KEY:-}" ] && [ ! -f "$credential_marker" ]; then
	file="$(mktemp)"
	# The key goes to n8n through a file only this user can read, removed right after the import.
	chmod 600 "$file"
	LEAD_INBOX_CREDENTIAL_FILE="$file" node -e '
		const { writeFileSync } = require("node:fs");
		const env = process.env;
		writeFileSync(env.LEAD_INBOX_CREDENTIAL_FILE, JSON.stringify([{
			id: env.LEAD_INBOX_CREDENTIAL_ID || "leadInboxDefault",
			name: env.LEAD_INBOX_CREDENTIAL_NAME || "Lead Inbox",
			type: "leadInboxApi",
			data: {
				apiKey: env.LEAD_INBOX_API_KEY,
				leadsBaseUrl: env.LEAD_INBOX_LEADS_URL || "",
				inboxBaseUrl: env.LEAD_INBOX_INBOX_URL || "",
			},
		}]));'
	if ! n8n import:credentials --input="$file" >"$file.log" 2>&1; then
		rm -f "$file"
		# n8n's own words, with the key taken out should they ever quote it.
		node -e 'const f = require("node:fs").readFileSync(process.argv[1], "utf8");
			process.stderr.write(f.split(process.env.LEAD_INBOX_API_KEY).join("<LEAD_INBOX_API_KEY>"));' "$file.log"
		rm -f "$file.log"
		echo "lead-inbox: importing the Lead Inbox credential failed (n8n's output above)" >&2
		exit 1
	fi
	rm -f "$file" "$file.log"
	touch "$credential_marker"
	echo "lead-inbox: credential \"${LEAD_INBOX_CREDENTIAL_NAME:-Lead Inbox}\" imported"
fi

exec /docker-entrypoint.sh "$@"
