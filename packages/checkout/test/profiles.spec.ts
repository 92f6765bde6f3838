import { expect, test } from '@playwright/test'
import { dialog, env, events, openPage, payButton, waitForStep } from './support.js'

// The widget against a service that answers only what the spec promises (the sandbox's strict
// profile): create returns only the id and the token, get session only the section-2.1 fields
// (no acceptedTokens, chainId, expiresAt, receivedAmount), funding answers 202, and each
// operation lives under one path form only.
const strict = () => ({ api: env.strictApi, rpc: env.strictRpc })

async function createStrictSession(amount: string, currency: string) {
  const response = await fetch(`${env.strictApi}/payment-sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${env.strictApiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amount, currency }),
  })
  expect(response.status).toBe(200)
  const created = await response.json()
  expect(Object.keys(created).sort()).toEqual(['paymentSessionId', 'paymentSessionToken'])
  return created as { paymentSessionId: string; paymentSessionToken: string }
}

/** Reads the session as the spec allows: with its session token, under the bare path. */
async function statusOf(session: { paymentSessionId: string; paymentSessionToken: string }) {
  const response = await fetch(`${env.strictApi}/payment-sessions/${session.paymentSessionId}`, {
    headers: { authorization: `Bearer ${session.paymentSessionToken}` },
  })
  return (await response.json()).status as string
}

test('strict profile: pays with a wallet, from PENDING to paid', async ({ page }) => {
  const session = await createStrictSession('6.40', 'USD')
  expect(await statusOf(session)).toBe('PENDING')
  const { errors } = await openPage(page, session, { service: strict() })
  await expect(payButton(page)).toHaveText(/Pay \$6\.40/)
  await payButton(page).click()
  await waitForStep(page, 'chooseWallet')
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
  // Without acceptedTokens, the only token offered is the session's tokenSymbol: a list of one
  // is skipped, straight to the review of that token.
  await waitForStep(page, 'review')
  const state = await page.evaluate(() => {
    const { tokens, selectedToken } = (document.querySelector('paysession-checkout') as any).state
    return { tokens: tokens.map((t: { symbol: string }) => t.symbol), selectedToken }
  })
  expect(state).toEqual({ tokens: ['USDC'], selectedToken: 'USDC' })
  await dialog(page).getByRole('button', { name: /^Pay / }).click()
  await waitForStep(page, 'paid')
  await expect(dialog(page).getByRole('heading', { name: 'Payment received' })).toBeVisible()
  await expect.poll(() => statusOf(session)).toBe('FUNDED')
  const types = (await events(page)).map((e) => e.type)
  expect(types).toContain('paysession-funding-sent')
  expect(types).toContain('paysession-paid')
  expect(types).not.toContain('paysession-error')
  expect(errors).toEqual([])
})

test('strict profile: a EUR session paid in EURC', async ({ page }) => {
  const session = await createStrictSession('3.10', 'EUR')
  await openPage(page, session, { service: strict() })
  await payButton(page).click()
  await waitForStep(page, 'chooseWallet')
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
  await waitForStep(page, 'review')
  await expect(dialog(page).locator('dd', { hasText: 'EURC' })).toBeVisible()
  await dialog(page).getByRole('button', { name: /^Pay / }).click()
  await waitForStep(page, 'paid')
  await expect.poll(() => statusOf(session)).toBe('FUNDED')
})
