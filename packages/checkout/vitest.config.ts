import { defineConfig } from 'vitest/config'

// Node checks of the widget's source (its browser tests are Playwright's, test/*.spec.ts).
// maxWorkers as every project of the root run (vitest groups projects by it); the time limit as
// theirs too (vitest.shared.ts): a bundle or a build takes seconds of CPU on a busy 2-core machine.
export default defineConfig({
  test: { name: 'checkout', include: ['test/**/*.test.ts'], maxWorkers: 3, testTimeout: 30_000 },
})
