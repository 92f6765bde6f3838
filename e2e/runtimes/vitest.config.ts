import { defineConfig } from 'vitest/config'

// The merchant examples (examples/*) in each runtime, against the real sandbox. Runs after the
// package builds (scripts/setup.sh): the runtimes load @paysession/server from its dist.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 240_000,
    // Each runtime gets its own sandbox; three at a time keeps 2 cores busy, not swamped.
    maxConcurrency: 3,
  },
})
