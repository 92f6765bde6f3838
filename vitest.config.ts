import { defineConfig } from 'vitest/config'

// One vitest run for the whole repo; each package has its own vitest.config.ts.
export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'apps/*/vitest.config.ts',
      'scripts/vitest.config.ts',
    ],
  },
})
