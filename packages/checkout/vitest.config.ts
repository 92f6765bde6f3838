import { defineConfig } from 'vitest/config'

// Node checks of the widget's source (its browser tests are Playwright's, test/*.spec.ts).
export default defineConfig({
  test: { name: 'checkout', include: ['test/**/*.test.ts'] },
})
