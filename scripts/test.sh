#!/bin/sh
# The whole suite: lint, then every package's tests (vitest) against real anvil + sandbox.
set -e
cd "$(dirname "$0")/.."
node_modules/.bin/biome check .
node_modules/.bin/vitest run
