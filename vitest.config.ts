import { relative } from 'node:path'
import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The longest files first, whatever their project: by the last run's time, or on a fresh clone by
 * size. Vitest's own order runs the projects one after another, which left the server's longest
 * file to run alone at the end.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const { cache, config } = this.ctx
    const weight = (file: TestSpecification) => {
      const key = `${file.project.name}:${relative(config.root, file.moduleId)}`
      return cache.getFileTestResults(key)?.duration ?? cache.getFileStats(key)?.size ?? 0
    }
    return [...files].sort((a, b) => weight(b) - weight(a))
  }
}

// One vitest run for the whole repo; each package has its own vitest.config.ts.
export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirst },
    projects: [
      'packages/*/vitest.config.ts',
      'apps/*/vitest.config.ts',
      'scripts/vitest.config.ts',
    ],
  },
})
