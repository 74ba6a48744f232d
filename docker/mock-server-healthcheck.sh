#!/bin/bash
# The reference server image's health check: GET /healthz on the URL the server wrote to
# $MOCK_READY_FILE once it listened, so it follows --port and --host however they were set.
# Plain bash (/dev/tcp), no Node process: cheap enough to run every second.
read -r url <"${MOCK_READY_FILE:?MOCK_READY_FILE is not set}" 2>/dev/null || exit 1
hostport="${url#http://}"
host="${hostport%:*}"
port="${hostport##*:}"
host="${host#[}"
host="${host%]}"
exec 3<>"/dev/tcp/${host}/${port}" || exit 1
printf 'GET /healthz HTTP/1.0\r\nHost: %s\r\n\r\n' "$hostport" >&3
read -r -t 2 _protocol status _reason <&3 || exit 1
[ "$status" = 200 ]
