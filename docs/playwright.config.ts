import { defineConfig } from '@playwright/test'

// Debian's Chromium against the built site (served under a sub-path) and the docs' HTML snippets
// (against the sandbox). `npm test` builds the site first (package.json `test`).
export default defineConfig({
  testDir: 'test',
  workers: 1,
  timeout: 120_000,
  globalTimeout: 4 * 60_000,
  forbidOnly: Boolean(process.env.CI),
  expect: { timeout: 20_000 },
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 900 },
    actionTimeout: 20_000,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
})
