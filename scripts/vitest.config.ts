import { defineConfig } from 'vitest/config'
import { maxWorkers } from '../vitest.shared.ts'

// maxWorkers and the time limit as every project of the root run (vitest.shared.ts): a bundle
// or a build takes seconds of CPU on a busy 2-core machine.
export default defineConfig({
  test: { name: 'scripts', include: ['test/**/*.test.ts'], maxWorkers, testTimeout: 30_000 },
})
