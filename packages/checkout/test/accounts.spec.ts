import { expect, test } from '@playwright/test'
import {
  createSession,
  dialog,
  env,
  events,
  openPage,
  payButton,
  waitForStatus,
  waitForStep,
} from './support.js'

// Smart-contract wallets against the real sandbox: the test wallet acts as the sandbox's smart
// account (EIP-5792) or its Safe-like account.

async function payUntil(page: import('@playwright/test').Page, step: string) {
  await payButton(page).click()
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
  await waitForStep(page, 'chooseToken')
  await dialog(page).getByRole('button', { name: /USDC/ }).click()
  await waitForStep(page, 'review')
  await dialog(page)
    .getByRole('button', { name: /^Pay \d/ })
    .click()
  await waitForStep(page, step)
}

const fundingSent = async (page: import('@playwright/test').Page) =>
  (await events(page)).filter((e) => e.type === 'paysession-funding-sent').map((e) => e.detail.hash)

const rpc = async (method: string, params: unknown[]) =>
  (
    await (
      await fetch(env.rpc, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      })
    ).json()
  ).result
const noGasNotice = (page: import('@playwright/test').Page) =>
  dialog(page).getByText('Your wallet has no ETH to pay the network fee.')

const sessionOf = async (id: string) =>
  (
    await fetch(`${env.api}/api/v1/payment-sessions/${id}`, {
      headers: { authorization: `Bearer ${env.apiKey}` },
    })
  ).json()

test('smart account: sends with wallet_sendCalls and reports the real transaction', async ({
  page,
}) => {
  const session = await createSession('10.00', 'USD')
  const { errors } = await openPage(page, session, { account: 'smart' })
  await payUntil(page, 'paid')
  await waitForStatus(session, ['FUNDED'])
  const funded = await sessionOf(session.paymentSessionId)
  expect(funded.userAddress.toLowerCase()).toBe(env.accounts.smartAccount.address.toLowerCase())
  expect(await fundingSent(page)).toEqual([funded.fundingTransactionHash])
  const calls = await page.evaluate(() => (window as any).__wallet.calls as string[])
  expect(calls).toContain('wallet_sendCalls')
  expect(calls).not.toContain('eth_sendTransaction')
  expect(errors).toEqual([])
})

test('no ETH: a smart account (its bundler pays the fee) is not warned and pays; a plain account is warned', async ({
  page,
  context,
}) => {
  // The smart account's owner is the plain account here (customer 0): both hold no ETH.
  const { address: smart, owner } = env.accounts.smartAccount
  const ownerBalance: string = await rpc('eth_getBalance', [owner, 'latest'])
  await rpc('anvil_setBalance', [owner, '0x0'])
  try {
    expect(BigInt(await rpc('eth_getBalance', [smart, 'latest']))).toBe(0n)
    const session = await createSession('10.00', 'USD')
    const { errors } = await openPage(page, session, { account: 'smart' })
    await payButton(page).click()
    await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
    await waitForStep(page, 'chooseToken')
    await expect(dialog(page).getByRole('button', { name: /USDC/ })).toBeEnabled()
    await expect(noGasNotice(page)).toHaveCount(0)
    await dialog(page).getByRole('button', { name: /USDC/ }).click()
    await waitForStep(page, 'review')
    await expect(noGasNotice(page)).toHaveCount(0)
    await dialog(page)
      .getByRole('button', { name: /^Pay \d/ })
      .click()
    await waitForStep(page, 'paid')
    await waitForStatus(session, ['FUNDED'])
    expect(BigInt(await rpc('eth_getBalance', [owner, 'latest']))).toBe(0n)
    expect(errors).toEqual([])

    // The owner's own key as a plain account: the fee would come from its empty balance.
    const plain = await context.newPage()
    await openPage(plain, await createSession('10.00', 'USD'))
    await payButton(plain).click()
    await dialog(plain).getByRole('button', { name: 'Test Wallet' }).click()
    await waitForStep(plain, 'chooseToken')
    await expect(noGasNotice(plain)).toBeVisible()
    await dialog(plain).getByRole('button', { name: /USDC/ }).click()
    await waitForStep(plain, 'review')
    // Said again where the customer pays, and never a reason to refuse: the button stays.
    await expect(noGasNotice(plain)).toBeVisible()
    await expect(dialog(plain).getByRole('button', { name: /^Pay \d/ })).toBeEnabled()
  } finally {
    await rpc('anvil_setBalance', [owner, ownerBalance])
  }
})

test('smart account, bundle still pending: the bundle id is never reported; paid once sent', async ({
  page,
}) => {
  // The checkout follows a bundle's status for `polling.callsTimeout` (30 s by default; 3 s
  // here) and then waits for the chain instead.
  const session = await createSession('10.00', 'USD')
  const { errors } = await openPage(page, session, {
    account: 'smart',
    polling: { callsTimeout: 3_000 },
  })
  await page.evaluate(() => {
    ;(window as any).__wallet.hold.bundle = true
  })
  await payUntil(page, 'confirmInWallet')
  await waitForStep(page, 'waitingForWallet')
  expect(await fundingSent(page)).toEqual([])
  expect(
    (await sessionOf(session.paymentSessionId)).userSubmittedTransactionHash ?? null,
  ).toBeNull()
  await page.evaluate(() => (window as any).__wallet.release.bundle())
  await waitForStep(page, 'paid')
  const funded = await sessionOf(session.paymentSessionId)
  expect(await fundingSent(page)).toEqual([funded.fundingTransactionHash])
  expect(funded.userAddress.toLowerCase()).toBe(env.accounts.smartAccount.address.toLowerCase())
  expect(errors).toEqual([])
})

test('Safe: the proposal id is not reported; the widget waits for the second owner', async ({
  page,
}) => {
  const session = await createSession('10.00', 'USD')
  const { errors } = await openPage(page, session, { account: 'safe' })
  await payUntil(page, 'waitingForWallet')
  await expect(
    dialog(page).locator('p.center', { hasText: 'Waiting for your wallet to send the payment…' }),
  ).toBeVisible()
  expect(await fundingSent(page)).toEqual([])
  expect(
    (await sessionOf(session.paymentSessionId)).userSubmittedTransactionHash ?? null,
  ).toBeNull()
  const [executed] = await page.evaluate(() => (window as any).__wallet.approveSafe())
  await waitForStep(page, 'paid')
  const funded = await sessionOf(session.paymentSessionId)
  expect(funded.fundingTransactionHash).toBe(executed)
  expect(funded.userAddress.toLowerCase()).toBe(env.accounts.safe.address.toLowerCase())
  expect(errors).toEqual([])
})
