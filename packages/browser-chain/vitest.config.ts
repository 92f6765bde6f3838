import { defineConfig } from 'vitest/config'
import { integrationTest } from '../../vitest.shared.ts'

export default defineConfig(integrationTest('browser-chain'))
