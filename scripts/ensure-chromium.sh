#!/bin/sh
# Debian's Chromium for the browser tests (Playwright's own browser download cannot work here).
set -e
command -v chromium >/dev/null 2>&1 && exit 0
echo "installing Debian's chromium for the browser tests..."
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
chromium --version
