#!/bin/sh
# Everything a fresh clone needs beyond Node and npm: pnpm (pinned, through npx),
# the dependencies (lockfile), and the package builds. Safe to run again: fast when done.
set -e
cd "$(dirname "$0")/.."
node scripts/pnpm.mjs install --frozen-lockfile --reporter=append-only 2>&1 | grep -vE '^(Progress|npm warn)' || true
test -d node_modules/.pnpm || { echo "pnpm install failed" >&2; exit 1; }
node scripts/pnpm.mjs -r --filter "./packages/**" build
