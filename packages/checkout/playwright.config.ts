import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs'
import { reporter } from '../../scripts/playwright.mjs'

// Real Chromium (Debian's), the real sandbox (service + anvil) and a static server with a strict
// CSP: all started and stopped by test/global-setup.ts. One worker: the machine has 2 cores.
export default defineConfig({
  testDir: 'test',
  testMatch: '*.spec.ts',
  globalSetup: './test/global-setup.ts',
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: reporter('widget'),
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    viewport: { width: 800, height: 760 },
    launchOptions: chromiumLaunchOptions,
  },
})
