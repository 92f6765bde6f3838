import { expect, test } from '@playwright/test'
import { createSession, dialog, env, events, payButton, waitForStep } from './support.js'
import { installWallet } from './wallet.js'

test('no reachable RPC for the session network: the dialog names it, the error event says how to set rpcUrls', async ({
  page,
}) => {
  const session = await createSession('2.00', 'USD')
  // The wallet itself talks to the sandbox's anvil; only the page's RPC URL is wrong.
  await page.addInitScript(installWallet, { rpcUrl: env.rpc, account: env.customer })
  const unreachable = 'http://127.0.0.1:9'
  const query = new URLSearchParams({
    'session-id': session.paymentSessionId,
    'session-token': session.paymentSessionToken,
    'api-base': env.api,
    rpc: unreachable,
  })
  await page.goto(`${env.page}/test/pages/index.html?${query}`)
  await payButton(page).click()
  await waitForStep(page, 'failed')
  await expect(dialog(page).getByRole('alert')).toHaveText(
    'Local test chain could not be reached. Please try again.',
  )
  await expect(dialog(page).getByRole('alert')).toBeVisible()
  const error = (await events(page)).find(
    (e) => e.type === 'paysession-error' && e.detail.code === 'CHAIN_UNAVAILABLE',
  )
  expect(error?.detail.details).toContain(`The RPC ${unreachable} for LOCAL (chain id 31337)`)
  expect(error?.detail.details).toContain(
    "rpcUrls: { 31337: 'https://…' } in createPaySessionConfig or on <paysession-checkout>",
  )
})
