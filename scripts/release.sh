#!/bin/sh
# The release: after `npm run version-packages` (changesets bumps versions and writes each
# package's CHANGELOG.md) is merged to main, this builds everything from the lockfile, runs the
# checks a published package must pass, and publishes every public package whose version is not
# on the registry yet (`changeset publish`: pnpm publish per package, workspace ranges replaced,
# a git tag per published package). Extra arguments go to `changeset publish` (--otp, --tag next).
set -e
cd "$(dirname "$0")/.."
PNPM="node scripts/pnpm.mjs"
sh scripts/setup.sh
node_modules/.bin/biome check .
$PNPM -r typecheck
$PNPM --filter @paysession/checkout run size
$PNPM --filter @paysession/protocol --filter @paysession/core --filter @paysession/server --filter @paysession/checkout run lint:package
node scripts/check-packages.mjs
# Through the pinned pnpm, so the `pnpm publish` that changesets runs finds pnpm on the PATH.
$PNPM exec changeset publish "$@"
