import { defineConfig, mergeConfig } from 'vitest/config'
import { integrationTest } from '../../vitest.shared.ts'

// The setup file makes query-core schedule polling timers in Node as it does in a browser.
export default mergeConfig(
  defineConfig(integrationTest('core')),
  defineConfig({ test: { setupFiles: ['./test/setup.ts'] } }),
)
