#!/bin/sh
# The whole suite, after scripts/setup.sh has installed and built everything:
# lint, types everywhere, the widget's size budgets and package checks, every package's vitest suite
# (real anvil + sandbox), the merchant examples in each runtime (Node, Express, Hono, Deno, Bun,
# workerd, next build && next start), then the widget and end-to-end tests in Debian's Chromium.
# The registry round trip (publish to a local Verdaccio, npm install in a fresh app, typecheck,
# build, pay) runs after the widget tests: packages/checkout/test/registry.roundtrip.ts.
# The docs: every TS/JS example type-checks (check-examples.mjs); last, the site is built and
# crawled under a sub-path in Chromium, and every HTML snippet reaches the Pay button (docs/test/).
set -e
cd "$(dirname "$0")/.."
PNPM="node scripts/pnpm.mjs"
node_modules/.bin/biome check .
$PNPM -r typecheck
$PNPM --filter @paysession/checkout run size
$PNPM --filter @paysession/checkout run lint:package
$PNPM --filter @paysession/protocol --filter @paysession/core --filter @paysession/server run lint:package
node scripts/check-packages.mjs
node scripts/check-examples.mjs
# Postgres and Redis for the relay's many-instance tests (each test starts its own servers).
sh scripts/ensure-services.sh
node_modules/.bin/vitest run
$PNPM --filter @paysession/runtimes-e2e test
sh scripts/ensure-chromium.sh
$PNPM --filter @paysession/checkout run test:browser
$PNPM --filter @paysession/checkout run test:registry
$PNPM --filter @paysession/e2e test
# Every bench once with tiny sizes (bench/README.md): proves each still runs.
$PNPM --filter @paysession/bench smoke
$PNPM --filter @paysession/docs test
