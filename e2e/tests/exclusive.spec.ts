// Tests that change what every session shares: anvil's automine and the sandbox clock. They run
// after every other test (project `exclusive`), one at a time, the clock one last.
import { expect, type Page, test } from '@playwright/test'
import {
  advanceClock,
  chain,
  createOrder,
  customers,
  expectPaidOnce,
  expectTransfers,
  expectWebhooks,
  getSession,
  payWithCli,
  rpc,
  sandboxCli,
  waitForStatus,
} from '../support/demo.js'
import {
  chooseToken,
  connect,
  countSends,
  currentStep,
  dialog,
  expectPaidView,
  openCheckout,
  payButton,
  payFully,
  recorded,
  reviewPayButton,
  rpcDownAfterSend,
  state,
  stepText,
  waitForStep,
  walletPending,
  widget,
} from '../support/widget.js'

test.describe.configure({ mode: 'serial' })

// The session token lives an hour (the sandbox's default); the funding window 24 hours.
const pastTheToken = 3600 + 60
/** The demo's token renewal (its server asks the sandbox's extension) answers nothing. */
const refuseRenewal = (page: Page) =>
  page.route('**/api/checkout/*/session-token', (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: '{}' }),
  )
const neverExpired = async (page: Page) => {
  const { steps } = await recorded(page)
  expect(steps).not.toContain('expired')
  await expect(widget(page)).not.toContainText(/expired/i)
}

test('token expired: paid before the token lifetime, opened after it: paid', async ({
  page,
}, testInfo) => {
  const order = await createOrder('notebook')
  await openCheckout(page, order.path)
  await payFully(page, 'USDC')
  await expectPaidOnce(order.id)
  await advanceClock(pastTheToken)
  // Without a fresh token, the widget reads the one-time wallet on chain.
  await refuseRenewal(page)
  await page.reload()
  await expect(payButton(page)).toHaveText('Paid')
  await payButton(page).click()
  await waitForStep(page, 'paid')
  await expectPaidView(page)
  await neverExpired(page)
  await state(page, testInfo, '1-paid-from-chain')
  // With the demo's token provider, the service itself says so.
  await page.unrouteAll({ behavior: 'ignoreErrors' })
  await page.reload()
  await expect(payButton(page)).toHaveText('Paid')
  await payButton(page).click()
  await waitForStep(page, 'paid')
  expect(
    await page.evaluate(
      () => (document.querySelector('paysession-checkout') as any).state.session.status,
    ),
  ).toBe('FUNDED')
  await neverExpired(page)
})

test('token expired: paid after the token lifetime, through a fresh token', async ({ page }) => {
  const order = await createOrder('notebook')
  await openCheckout(page, order.path)
  const sends = countSends(page)
  await connect(page)
  await chooseToken(page, 'USDC')
  await advanceClock(pastTheToken)
  await reviewPayButton(page).click()
  await waitForStep(page, 'paid')
  await expectPaidView(page)
  await expectPaidOnce(order.id)
  expect(sends).toHaveLength(1)
  await neverExpired(page)
  const { steps } = await recorded(page)
  expect(steps).not.toContain('untracked')
})

test('token expired: unpaid after it, still payable; without a fresh token, followed on chain', async ({
  page,
}, testInfo) => {
  const order = await createOrder('mug')
  await openCheckout(page, order.path)
  await expect(payButton(page)).toHaveText('Pay $24.50')
  await advanceClock(pastTheToken)
  // The merchant's page hands a fresh token: the funding window is open, the payment offered.
  await page.reload()
  await expect(payButton(page)).toHaveText('Pay $24.50')
  await payButton(page).click()
  await waitForStep(page, 'chooseWallet')
  await neverExpired(page)
  // A merchant without renewal: the widget says what it knows, and keeps watching the chain.
  await advanceClock(pastTheToken)
  await refuseRenewal(page)
  await page.reload()
  await expect(payButton(page)).toHaveText('View payment')
  await payButton(page).click()
  await waitForStep(page, 'untracked')
  await expect(
    dialog(page).getByRole('heading', { name: 'This payment can no longer be followed here' }),
  ).toBeVisible()
  await expect(dialog(page).getByText(/still reaches the merchant/)).toBeVisible()
  await expect(dialog(page).getByRole('alert')).toHaveCount(0)
  await state(page, testInfo, '1-untracked')
  // The customer pays from a terminal: the widget sees the one-time wallet funded.
  await payWithCli(order.id)
  await waitForStep(page, 'paid')
  await expectPaidView(page)
  await expectPaidOnce(order.id)
  await neverExpired(page)
})

test('reload while confirming (automine off): one transfer, paid once mined', async ({
  page,
}, testInfo) => {
  const order = await createOrder('notebook')
  await openCheckout(page, order.path)
  const sends = countSends(page)
  await connect(page)
  await chooseToken(page, 'USDC')
  await rpc('evm_setAutomine', [false])
  try {
    await reviewPayButton(page).click()
    await waitForStep(page, 'confirming')
    await expect(stepText(page, 'Confirming on the network…')).toBeVisible()
    await state(page, testInfo, '1-confirming')
    const { events } = await recorded(page)
    const hash = events.find((e) => e.type === 'paysession-funding-sent')!.detail.hash
    // In the mempool, not mined.
    expect((await chain.getTransaction({ hash })).blockNumber).toBeNull()
    await page.reload()
    await expect(payButton(page)).toHaveText('Payment in progress')
    await state(page, testInfo, '2-button-in-progress', false)
    await payButton(page).click()
    await waitForStep(page, 'confirming')
    await expect(reviewPayButton(page)).toHaveCount(0)
    await state(page, testInfo, '3-confirming-after-reload')
    await rpc('evm_mine')
  } finally {
    await rpc('evm_setAutomine', [true])
  }
  await waitForStep(page, 'paid')
  await expectPaidView(page)
  await expectPaidOnce(order.id)
  expect(sends).toHaveLength(1)
  await expectWebhooks(order.id, ['CREATED', 'PENDING', 'FUNDED'])
})

test('the RPC node is unreachable while confirming (transfer pending): completes', async ({
  page,
}, testInfo) => {
  const order = await createOrder('notebook')
  await openCheckout(page, order.path)
  await connect(page)
  await chooseToken(page, 'USDC')
  const rpcDown = await rpcDownAfterSend(page)
  await rpc('evm_setAutomine', [false])
  try {
    await reviewPayButton(page).click()
    await waitForStep(page, 'confirming')
    // The transfer waits in the mempool while every chain read from the page is refused.
    await expect.poll(() => rpcDown.refused, { timeout: 30_000 }).toBeGreaterThanOrEqual(5)
    expect(await currentStep(page)).toBe('confirming')
    await state(page, testInfo, '1-confirming-rpc-down')
    rpcDown.restore()
    await rpc('evm_mine')
  } finally {
    await rpc('evm_setAutomine', [true])
  }
  await waitForStep(page, 'paid')
  await expectPaidView(page)
  await expectPaidOnce(order.id)
  expect(rpcDown.sent).toBe(1)
  const { steps } = await recorded(page)
  await testInfo.attach('steps', { body: JSON.stringify(steps) })
  expect(steps).not.toContain('failed')
})

// What Circle's FiatToken adds (the sandbox's CLI plays the issuer): each case is said with its
// sentence before any wallet prompt. Pausing USDC, or blacklisting a customer, touches every
// session, hence here.
for (const [code, sentence] of [
  ['TOKEN_PAUSED', 'This token is paused by its issuer'],
  ['PAYER_BLOCKED', 'This token’s issuer has blocked your wallet address'],
  ['RECIPIENT_BLOCKED', 'This token’s issuer has blocked the payment address'],
] as const)
  test(`the issuer refuses USDC (${code}): said before any prompt, nothing sent`, async ({
    page,
  }, testInfo) => {
    const order = await createOrder('notebook')
    const session = await getSession(order.id)
    await openCheckout(page, order.path, 2)
    const sends = countSends(page)
    await connect(page)
    await chooseToken(page, 'USDC')
    const [on, off] =
      code === 'TOKEN_PAUSED'
        ? [
            ['token', 'pause', 'USDC'],
            ['token', 'unpause', 'USDC'],
          ]
        : [code === 'PAYER_BLOCKED' ? customers[2] : session.oneTimeWalletAddress].map((who) => [
            ['token', 'blacklist', who, '--token', 'USDC'],
            ['token', 'unblacklist', who, '--token', 'USDC'],
          ])[0]!
    await sandboxCli(...on!)
    try {
      await reviewPayButton(page).click()
      await waitForStep(page, 'chooseToken')
      await expect(dialog(page).getByRole('alert')).toContainText(sentence)
      await state(page, testInfo, code)
      expect(await walletPending(page)).toEqual([])
      expect(sends).toHaveLength(0)
      await expectTransfers(session.oneTimeWalletAddress, 0)
    } finally {
      await sandboxCli(...off!)
    }
  })

test('session expired: a page opened afterwards shows it and offers nothing to pay', async ({
  page,
}, testInfo) => {
  const order = await createOrder('tamper')
  // The funding window (24 h) passes; the session token (1 h) has expired too.
  await advanceClock(24 * 3600 + 60)
  const session = await waitForStatus(order.id, 'CANCELED')
  await openCheckout(page, order.path)
  const sends = countSends(page)
  await expect(payButton(page)).toHaveText('Payment expired')
  await state(page, testInfo, '1-button-expired')
  await payButton(page).click()
  await waitForStep(page, 'expired')
  await expect(dialog(page).getByRole('heading', { name: 'Payment expired' })).toBeVisible()
  await expect(dialog(page).getByRole('alert')).toBeVisible()
  // Nothing to pay with: only the two ways to close.
  await expect(dialog(page).getByRole('button')).toHaveText(['×', 'Close'])
  await state(page, testInfo, '2-expired')
  await page.keyboard.press('Escape')
  await expect(dialog(page)).toBeHidden()
  expect(sends).toHaveLength(0)
  await expectTransfers(session.oneTimeWalletAddress, 0)
  await expectWebhooks(order.id, ['CREATED', 'CANCELED'])
})

test('session expires while the customer is at the review: Pay shows the expiry', async ({
  page,
}, testInfo) => {
  const order = await createOrder('notebook')
  await openCheckout(page, order.path)
  const sends = countSends(page)
  await connect(page)
  await chooseToken(page, 'USDC')
  await advanceClock(24 * 3600 + 60)
  const session = await waitForStatus(order.id, 'CANCELED')
  await reviewPayButton(page).click()
  await waitForStep(page, ['expired', 'failed'])
  await state(page, testInfo, '1-pay-after-expiry')
  // Never a prompt, never a transfer.
  expect(sends).toHaveLength(0)
  await expectTransfers(session.oneTimeWalletAddress, 0)
  await expectWebhooks(order.id, ['CREATED', 'CANCELED'])
  expect((await recorded(page)).steps).not.toContain('failed')
  await expect(dialog(page).getByRole('heading', { name: 'Payment expired' })).toBeVisible({
    timeout: 1_000,
  })
  await expect(dialog(page).getByRole('button', { name: 'Try again' })).toHaveCount(0)
})
