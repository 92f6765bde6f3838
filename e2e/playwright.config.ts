import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions } from '../scripts/chromium.mjs'
import { reporter, workers } from '../scripts/playwright.mjs'

// Debian's Chromium against the demo merchant (apps/demo), which runs the sandbox service and
// anvil in-process: one demo for the whole run, started and stopped by global-setup.ts.
// Two projects: `flows` runs on the machine's browser workers (scripts/playwright.mjs);
// `exclusive` runs afterwards, alone, the tests that change something every session shares
// (anvil's automine, the sandbox clock).
// tests/hosted.spec.ts runs in a run of its own (hosted.config.ts), with no demo, sandbox or anvil;
// tests/real-wallets.spec.ts in one of its own too (wallets.config.ts), with the wallet stacks.
export default defineConfig({
  testDir: 'tests',
  globalSetup: './global-setup.ts',
  workers,
  fullyParallel: true,
  // One scenario: a page or two, a payment and its confirmations. A longer one sets its own.
  // No global timeout: npm test stops a stage that prints nothing for minutes (scripts/test.mjs).
  timeout: 90_000,
  forbidOnly: Boolean(process.env.CI),
  expect: { timeout: 20_000 },
  retries: 0,
  reporter: reporter('e2e'),
  // Each run its own folder: the three runs may go on at once under npm test.
  outputDir: 'test-results/flows',
  use: {
    browserName: 'chromium',
    viewport: { width: 1100, height: 900 },
    actionTimeout: 20_000,
    // A failure's trace keeps the actions, the DOM, console and network, not the screencast,
    // which cost about a tenth of the CPU of a run.
    trace: { mode: 'retain-on-failure', screenshots: false },
    launchOptions: chromiumLaunchOptions,
  },
  projects: [
    { name: 'flows', testIgnore: ['exclusive.spec.ts', 'hosted.spec.ts', 'real-wallets.spec.ts'] },
    { name: 'exclusive', testMatch: 'exclusive.spec.ts', dependencies: ['flows'] },
  ],
})
