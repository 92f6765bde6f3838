import { fileURLToPath } from 'node:url'
import type { ViteUserConfig } from 'vitest/config'

const src = (pkg: string, entry: string) =>
  fileURLToPath(new URL(`./packages/${pkg}/src/${entry}`, import.meta.url))

// Tests import workspace packages from source, so no build is needed to run them.
// A subpath comes before its package: an alias key also matches as a prefix.
export const workspaceAlias = {
  '@paysession/server/relay': src('server', 'relay.ts'),
  '@paysession/server/node': src('server', 'node.ts'),
  '@paysession/server/postgres': src('server', 'postgres.ts'),
  '@paysession/server/redis': src('server', 'redis.ts'),
  '@paysession/server/x402': src('server', 'x402.ts'),
  '@paysession/sandbox/inpage': src('sandbox', 'inpage/index.ts'),
  '@paysession/sandbox/artifacts/contracts.json': fileURLToPath(
    new URL('./packages/sandbox/artifacts/contracts.json', import.meta.url),
  ),
  '@paysession/sandbox': src('sandbox', 'index.ts'),
  '@paysession/core': src('core', 'exports/index.ts'),
  '@paysession/server': src('server', 'index.ts'),
  '@paysession/protocol': src('protocol', 'index.ts'),
}

/**
 * Files at once, the same in every project (vitest groups projects by it; the checkout's and
 * the scripts' configs, which typecheck alone, repeat the number). Most files wait on
 * their own sandbox and anvil: on 2 cores three at a time finished sooner than two, four later
 * and with timing failures.
 */
export const maxWorkers = 3

export const integrationTest = (name: string): ViteUserConfig => ({
  resolve: { alias: workspaceAlias },
  test: {
    name,
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers,
  },
})
