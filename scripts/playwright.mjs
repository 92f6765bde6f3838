// What every Playwright run of the suite shares besides Chromium's launch options (chromium.mjs).
import { availableParallelism } from 'node:os'
import { join } from 'node:path'

/**
 * The list reporter, plus a JSON report under npm test (scripts/test.mjs sets
 * PAYSESSION_TEST_REPORTS), from which the stage table names the slowest tests.
 */
export function reporter(name) {
  const dir = process.env.PAYSESSION_TEST_REPORTS
  return dir ? [['list'], ['json', { outputFile: join(dir, `${name}.json`) }]] : [['list']]
}

/**
 * Browser workers for this machine: one per two cores beside the servers the tests talk to
 * (anvil, the sandbox, a demo). On 2 cores a second Chromium worker made runs slower and flaky.
 * E2E_WORKERS overrides.
 */
export const workers =
  Number(process.env.E2E_WORKERS) || Math.max(1, Math.floor(availableParallelism() / 2))
