import { defineConfig } from 'vitest/config'

// maxWorkers as every project of the root run (vitest groups projects by it).
export default defineConfig({
  test: { name: 'scripts', include: ['test/**/*.test.ts'], maxWorkers: 2 },
})
