import { defineConfig } from '@playwright/test'
import { reporter } from '../../scripts/playwright.mjs'
import base from './playwright.config.js'

// The slower registry round trip (test/registry.roundtrip.ts): publish to a local registry, install
// in a fresh app with npm, typecheck, build, pay. Same sandbox and Chromium as the widget tests.
export default defineConfig({
  ...base,
  testMatch: 'registry.roundtrip.ts',
  timeout: 240_000,
  reporter: reporter('registry'),
})
