import { defineConfig } from '@playwright/test'
import { reporter } from '../scripts/playwright.mjs'
import base from './playwright.config.js'

// The hosted demo's scenarios (tests/hosted.spec.ts), in a run of their own: no demo merchant,
// no sandbox, no anvil. hosted-setup.ts builds apps/demo/dist/hosted from the current sources;
// the spec serves it with a plain static file server. `npm test` runs it beside the main run.
export default defineConfig({
  ...base,
  reporter: reporter('e2e-hosted'),
  outputDir: 'test-results/hosted',
  globalSetup: './hosted-setup.ts',
  projects: [{ name: 'hosted', testMatch: 'hosted.spec.ts' }],
})
