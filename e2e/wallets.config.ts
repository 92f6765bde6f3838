import { defineConfig } from '@playwright/test'
import { reporter } from '../scripts/playwright.mjs'
import base from './playwright.config.js'

// The real wallet stacks' scenarios (tests/real-wallets.spec.ts), in a run of their own:
// wallets-setup.ts starts the demo as global-setup.ts does, then puts Safe 1.4.1, the ERC-4337
// EntryPoint, the Alto bundler and the ERC-7677 paymaster service on its chain
// (@paysession/wallet-stacks). `npm test` runs it after the hosted run, beside the main run.
export default defineConfig({
  ...base,
  reporter: reporter('e2e-wallets'),
  outputDir: 'test-results/wallets',
  globalSetup: './wallets-setup.ts',
  workers: 1,
  projects: [{ name: 'wallets', testMatch: 'real-wallets.spec.ts' }],
})
