#!/usr/bin/env bash
# The Node.js major an n8n version runs on, as its official image has it: 2.8 on Node 22, the lines
# after it on 24 (n8n >= 2.9 asks for it); 1.x on 20, as the self-hosted 1.x instances still run
# it. install-n8n.sh installs each app on it, test/compose builds each stand-in image on it, and
# test/e2e/n8n-app.cts runs each app on it.
#   n8n-node-line.sh VERSION
case "${1:?give an n8n version}" in
1.*) echo 20 ;;
2.[0-8].*) echo 22 ;;
*) echo 24 ;;
esac
