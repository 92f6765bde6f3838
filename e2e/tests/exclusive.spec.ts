// Tests that change what every session shares: anvil's automine and the sandbox clock. They run
// after every other test (project `exclusive`), one at a time, the clock one last.
import { expect, test } from '@playwright/test'
import {
  advanceClock,
  chain,
  createOrder,
  env,
  expectPaidOnce,
  expectTransfers,
  expectWebhooks,
  rpc,
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
  recorded,
  reviewPayButton,
  state,
  stepText,
  waitForStep,
} from '../support/widget.js'

test.describe.configure({ mode: 'serial' })

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
  let down = false
  let refused = 0
  let sent = 0
  await page.route(
    (url) => url.href.startsWith(env.rpc),
    async (route) => {
      const body = route.request().postData() ?? ''
      if (body.includes('eth_sendTransaction')) {
        sent++
        await route.continue()
        down = true
        return
      }
      if (!down) return route.continue()
      refused++
      return route.abort('connectionrefused')
    },
  )
  await rpc('evm_setAutomine', [false])
  try {
    await reviewPayButton(page).click()
    await waitForStep(page, 'confirming')
    // The transfer waits in the mempool while every chain read from the page is refused.
    await expect.poll(() => refused, { timeout: 30_000 }).toBeGreaterThanOrEqual(5)
    expect(await currentStep(page)).toBe('confirming')
    await state(page, testInfo, '1-confirming-rpc-down')
    down = false
    await rpc('evm_mine')
  } finally {
    await rpc('evm_setAutomine', [true])
  }
  await waitForStep(page, 'paid')
  await expectPaidView(page)
  await expectPaidOnce(order.id)
  expect(sent).toBe(1)
  const { steps } = await recorded(page)
  await testInfo.attach('steps', { body: JSON.stringify(steps) })
  expect(steps).not.toContain('failed')
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
