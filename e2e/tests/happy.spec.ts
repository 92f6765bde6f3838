import { expect, test } from '@playwright/test'
import {
  balanceOf,
  createOrder,
  customers,
  env,
  expectTransfers,
  expectWebhooks,
  getSession,
  type Order,
  type ProductId,
  products,
  type TokenSymbol,
  transfersFrom,
  units,
  waitForStatus,
} from '../support/demo.js'
import {
  chooseToken,
  connect,
  countSends,
  currentStep,
  dialog,
  expectPaidView,
  holdPaidEvent,
  openCheckout,
  payButton,
  recorded,
  releasePaidEvent,
  reviewPayButton,
  setupWallet,
  state,
  waitForStep,
  watchPage,
} from '../support/widget.js'

// Every test token through both integrations: the script-tag page and the Vite SPA.
const cases: { integration: 'script' | 'spa'; token: TokenSymbol; product: ProductId }[] = [
  { integration: 'script', token: 'USDC', product: 'notebook' },
  { integration: 'script', token: 'USDT', product: 'beanie' },
  { integration: 'script', token: 'EURC', product: 'tamper' },
  { integration: 'spa', token: 'USDC', product: 'beanie' },
  { integration: 'spa', token: 'USDT', product: 'notebook' },
  { integration: 'spa', token: 'EURC', product: 'tamper' },
]

const names: Record<ProductId, string> = {
  notebook: 'Field Notebook',
  mug: 'Stoneware Mug',
  beanie: 'Merino Beanie',
  tamper: 'Espresso Tamper',
}

for (const [index, { integration, token, product }] of cases.entries())
  test(`happy path: ${integration === 'script' ? 'script-tag' : 'SPA'} page, ${token}`, async ({
    page,
  }, testInfo) => {
    // The first case of each integration goes through the shop's own form (integration switch,
    // Buy); the others post the same form directly.
    const viaShop = index === 0 || index === 3
    let order: Order
    let errors: string[]
    if (integration === 'spa') await holdPaidEvent(page)
    if (viaShop) {
      ;({ errors } = await watchPage(page))
      await page.goto(env.demo)
      await page.getByRole('radio', { name: integration === 'spa' ? /SPA/ : /Script tag/ }).check()
      await page
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: names[product] }) })
        .getByRole('button', { name: 'Buy' })
        .click()
      await page.waitForURL(new RegExp(`/${integration === 'spa' ? 'spa' : 'checkout'}/ps_`))
      const path = new URL(page.url()).pathname
      order = { path, id: path.split('/').pop()! }
      await setupWallet(page, 0, 'autoapprove')
    } else {
      order = await createOrder(product, integration)
      ;({ errors } = await openCheckout(page, order.path, 0))
    }
    const sends = countSends(page)
    const { amount, currency } = products[product]
    // axe on every state once per integration (the states are the same for every token).
    const axe = viaShop
    await expect(payButton(page)).toHaveText(
      currency === 'EUR' ? `Pay €${amount}` : `Pay $${amount}`,
    )
    await state(page, testInfo, '1-button', axe)
    await connect(page)
    if (currency === 'EUR') {
      // EURC is the one token a EUR item accepts: no list of one, straight to review.
      expect(await currentStep(page)).toBe('review')
    } else {
      await state(page, testInfo, '2-choose-token', axe)
      // The session's accepted tokens only: USDC and USDT for USD.
      const offered = await dialog(page).locator('[part~="token"] strong').allTextContents()
      expect(offered.sort()).toEqual(['USDC', 'USDT'])
      await chooseToken(page, token)
    }
    await expect(dialog(page).locator('dd', { hasText: token })).toBeVisible()
    await state(page, testInfo, '3-review', axe)
    await reviewPayButton(page).click()
    await waitForStep(page, 'paid')
    if (integration === 'script') {
      await expectPaidView(page)
      await state(page, testInfo, '4-paid', axe)
      await expect(page.locator('.paid-note')).toBeVisible()
    } else {
      await expect(dialog(page).getByRole('heading', { name: 'Payment received' })).toBeVisible()
      await state(page, testInfo, '4-paid', axe)
      await releasePaidEvent(page)
      // The SPA moves on to its own thank-you page.
      await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible()
      await expect(page).toHaveURL(new RegExp(`/spa/${order.id}/paid$`))
      await state(page, testInfo, '5-spa-thanks', false)
    }

    // The service: funded with this token, by this customer, with the reported hash.
    const session = await waitForStatus(order.id, 'FUNDED')
    expect(session).toMatchObject({
      tokenSymbol: token,
      receivedAmount: amount,
      capturableAmount: amount,
    })
    expect(session.userAddress?.toLowerCase()).toBe(customers[0].toLowerCase())
    // The chain: one transfer of exactly the amount into the one-time wallet.
    const [log] = await expectTransfers(session.oneTimeWalletAddress, 1)
    expect(log!.args.value).toBe(units(amount))
    expect(log!.transactionHash).toBe(session.fundingTransactionHash)
    expect(await balanceOf(token, session.oneTimeWalletAddress)).toBe(units(amount))
    expect(sends).toHaveLength(1)
    // Webhooks: the merchant's endpoint acknowledged each status, in order.
    await expectWebhooks(order.id, ['CREATED', 'PENDING', 'FUNDED'])
    const { steps, events } = await recorded(page)
    // Every step in order. `confirming` and `waitingForService` pass unseen when the service
    // already reports FUNDED while the widget is still waiting for the hash report or the receipt.
    // A EUR item accepts EURC only: no chooseToken step.
    const choose = currency === 'EUR' ? '' : ' chooseToken'
    expect(steps.join(' ')).toMatch(
      new RegExp(
        `^loading chooseWallet connecting${choose} review confirmInWallet submitted( confirming)?( waitingForService)? paid$`,
      ),
    )
    expect(events.find((e) => e.type === 'paysession-paid')?.detail).toMatchObject({
      sessionId: order.id,
      amount,
      tokenSymbol: token,
    })
    expect(errors).toEqual([])
  })

test('merchant console: partial then final capture, the refund on chain, webhooks in order', async ({
  page,
}, testInfo) => {
  const customer = customers[1] // this test's own customer: its balance is checked exactly
  const order = await createOrder('mug', 'script') // 24.50 USD
  const before = await balanceOf('USDC', customer)
  await openCheckout(page, order.path, 1)
  await connect(page)
  await chooseToken(page, 'USDC')
  await reviewPayButton(page).click()
  await waitForStep(page, 'paid')
  const session = await waitForStatus(order.id, 'FUNDED')
  const otw = session.oneTimeWalletAddress
  expect(await balanceOf('USDC', customer)).toBe(before - units('24.50'))

  // The merchant console, as the merchant uses it: select the session, capture part of it.
  await page.goto(`${env.demo}/console?session=${order.id}`)
  const status = page.getByTestId('session-status')
  await expect(status).toHaveText('FUNDED')
  const amountInput = page.getByLabel('Capture amount')
  await expect(amountInput).toHaveValue('24.50')
  await amountInput.fill('10.00')
  await page.getByRole('button', { name: 'Capture partial' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Capture' })).toContainText(
    'of 10.00 started',
  )
  await waitForStatus(order.id, 'FUNDED')
  await expect(status).toHaveText('FUNDED') // the console refreshes in place
  await expect(page.getByTestId('capturable')).toHaveText('14.50')
  // The notice follows the capture: "started" becomes "completed", and a reload does not repeat it.
  await expect(page.getByRole('status').filter({ hasText: 'Capture' })).toContainText(
    'of 10.00 completed.',
  )
  await expect(page).toHaveURL(new RegExp(`/console\\?session=${order.id}$`))
  await page.screenshot({ path: testInfo.outputPath('console-partial.png') })
  await testInfo.attach('console-partial', {
    path: testInfo.outputPath('console-partial.png'),
    contentType: 'image/png',
  })

  // Final capture of 8.00 out of 14.50: the other 6.50 goes back to the customer.
  await expect(amountInput).toHaveValue('14.50')
  await amountInput.fill('8.00')
  await page.getByRole('button', { name: 'Final capture' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Final capture' })).toContainText(
    'of 8.00 started',
  )
  const done = await waitForStatus(order.id, 'SUCCEEDED')
  await expect(status).toHaveText('SUCCEEDED')
  // Nothing is left to capture: the form gives way to what was captured and refunded.
  await expect(page.locator('.capture-form')).toBeHidden()
  await expect(page.locator('.capture-closed')).toContainText(
    'Settled: 18.00 USDC captured, 6.50 USDC refunded to the customer.',
  )
  await expect(page.getByRole('status').filter({ hasText: 'Final capture' })).toContainText(
    'of 8.00 completed, 6.50 refunded to the customer.',
  )
  await expect(page.locator('table.captures tbody tr')).toHaveCount(2)
  await page.screenshot({ path: testInfo.outputPath('console-final.png'), fullPage: true })
  await testInfo.attach('console-final', {
    path: testInfo.outputPath('console-final.png'),
    contentType: 'image/png',
  })

  // The service's record.
  expect(done.capturedAmount).toBe('18.00')
  expect(
    done.captures?.map((c) => [c.captureAmount, c.refundAmount, c.status, c.finalCapture]),
  ).toEqual([
    ['10.00', '0.00', 'CAPTURED', false],
    ['8.00', '6.50', 'CAPTURED', true],
  ])
  // The chain: 10.00 and 8.00 to the treasury, 6.50 back to the customer, nothing left at the OTW.
  const out = await transfersFrom(otw)
  const refund = out.find((l) => l.args.to?.toLowerCase() === customer.toLowerCase())
  expect(refund?.args.value).toBe(units('6.50'))
  expect(refund?.transactionHash).toBe(done.captures![1]!.refundTransferTransactionHash)
  expect(out.filter((l) => l !== refund).map((l) => l.args.value)).toEqual([
    units('10.00'),
    units('8.00'),
  ])
  expect(await balanceOf('USDC', otw)).toBe(0n)
  expect(await balanceOf('USDC', customer)).toBe(before - units('18.00'))
  await expectTransfers(otw, 1)

  // Webhooks: every status, in order, acknowledged by the merchant and verified there.
  const statuses = await expectWebhooks(order.id, [
    'CREATED',
    'PENDING',
    'FUNDED',
    'CAPTURING',
    'FUNDED',
    'CAPTURING',
    'SUCCEEDED',
  ])
  const rows = page.locator('[data-live="webhooks"] tbody tr', { hasText: order.id.slice(0, 9) })
  await expect(rows).toHaveCount(statuses.length)
  await expect(rows.filter({ hasText: 'Signature verified' })).toHaveCount(statuses.length)

  // Back on the checkout page the customer sees the payment completed.
  await page.goto(`${env.demo}${order.path}`)
  await expect(payButton(page)).toHaveText('Paid')
  await payButton(page).click()
  await waitForStep(page, 'completed')
  await expect(dialog(page).getByRole('heading', { name: 'Payment received' })).toBeVisible()
  await state(page, testInfo, 'completed')
  expect((await getSession(order.id)).status).toBe('SUCCEEDED')
})
