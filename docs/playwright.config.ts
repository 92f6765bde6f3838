import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions } from '../scripts/chromium.mjs'
import { reporter } from '../scripts/playwright.mjs'

// Debian's Chromium against the built site (served under a sub-path) and the docs' HTML snippets
// (against the sandbox). `npm test` builds the site first (package.json `test`).
export default defineConfig({
  testDir: 'test',
  workers: 1,
  timeout: 120_000,
  forbidOnly: Boolean(process.env.CI),
  expect: { timeout: 20_000 },
  retries: 0,
  reporter: reporter('docs'),
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 900 },
    actionTimeout: 20_000,
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
})
