#!/bin/sh
# Debian's PostgreSQL and Redis for the tests and the relay bench, which start their own
# servers on free ports in temporary folders (scripts/services.mjs).
set -e
have_pg() { ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1; }
have_redis() { command -v redis-server >/dev/null 2>&1; }
have_pg && have_redis && exit 0
want=""
have_pg || want="$want postgresql"
have_redis || want="$want redis-server"
echo "installing Debian's$want for the tests..."
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
# The packages' own services are not wanted: each test starts its own server.
DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 $SUDO apt-get install -y -qq --no-install-recommends $want >/dev/null
