#!/bin/sh
# The whole suite, after scripts/setup.sh has installed and built everything:
# lint, types everywhere, the widget's size budgets and package checks, every package's vitest suite
# (real anvil + sandbox), then the widget and end-to-end tests in Debian's Chromium.
set -e
cd "$(dirname "$0")/.."
PNPM="node scripts/pnpm.mjs"
node_modules/.bin/biome check .
$PNPM -r typecheck
$PNPM --filter @paysession/checkout run size
$PNPM --filter @paysession/checkout run lint:package
$PNPM --filter @paysession/protocol --filter @paysession/core --filter @paysession/server run lint:package
node_modules/.bin/vitest run
sh scripts/ensure-chromium.sh
$PNPM --filter @paysession/checkout run test:browser
$PNPM --filter @paysession/e2e test
