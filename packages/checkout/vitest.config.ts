import { defineConfig } from 'vitest/config'

// Node checks of the widget's source (its browser tests are Playwright's, test/*.spec.ts).
// maxWorkers as every project of the root run (vitest groups projects by it).
export default defineConfig({
  test: { name: 'checkout', include: ['test/**/*.test.ts'], maxWorkers: 2 },
})
