import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions } from '../scripts/chromium.mjs'

// Debian's Chromium against the demo merchant (apps/demo), which runs the sandbox service and
// anvil in-process: one demo for the whole run, started and stopped by global-setup.ts.
// Two projects: `flows` runs on two workers; `exclusive` runs afterwards, alone, the tests that
// change something every session shares (anvil's automine, the sandbox clock).
// tests/hosted.spec.ts runs in a run of its own (hosted.config.ts), with no demo, sandbox or anvil;
// tests/real-wallets.spec.ts in one of its own too (wallets.config.ts), with the wallet stacks.
export default defineConfig({
  testDir: 'tests',
  globalSetup: './global-setup.ts',
  workers: 2,
  fullyParallel: true,
  timeout: 90_000,
  // A hung run fails instead of holding CI; a normal run takes about two minutes.
  globalTimeout: 8 * 60_000,
  forbidOnly: Boolean(process.env.CI),
  expect: { timeout: 20_000 },
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    viewport: { width: 1100, height: 900 },
    actionTimeout: 20_000,
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  projects: [
    { name: 'flows', testIgnore: ['exclusive.spec.ts', 'hosted.spec.ts', 'real-wallets.spec.ts'] },
    { name: 'exclusive', testMatch: 'exclusive.spec.ts', dependencies: ['flows'] },
  ],
})
