import { defineConfig } from '@playwright/test'
import base from './playwright.config.js'

// `npx playwright test -c screenshots.config.ts` regenerates apps/demo/docs/screenshots: every
// demo page at 1280 and 390 px, light and dark, against a fresh demo (the same global setup as
// the e2e suite). Not part of `npm test`: it writes files, it asserts little.
export default defineConfig({
  ...base,
  testDir: 'screenshots',
  projects: undefined,
  workers: 1,
  fullyParallel: false,
  timeout: 180_000,
  globalTimeout: 10 * 60_000,
})
