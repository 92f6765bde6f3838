// The service and the chain failing under the widget, and a payment made outside it.
import { expect, type Route, test } from '@playwright/test'
import {
  createOrder,
  env,
  expectPaidOnce,
  expectTransfers,
  expectWebhooks,
  getSession,
  payWithCli,
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
  rpcDownAfterSend,
  state,
  waitForStep,
} from '../support/widget.js'

test('the service fails while the hash is reported (5xx, timeout, refused), then recovers', async ({
  page,
}, testInfo) => {
  const order = await createOrder('notebook')
  const { errors } = await openCheckout(page, order.path)
  const sends = countSends(page)
  await connect(page)
  await chooseToken(page, 'USDC')
  // From the first report of the hash on, the service is down for this session: the report
  // fails three ways in turn (and so do the status polls meanwhile), then everything goes through.
  const reports: string[] = []
  let down = false
  const origin = new URL(env.demo).origin
  const fail = async (route: Route, kind: string) => {
    if (kind === '503')
      return route.fulfill({
        status: 503,
        contentType: 'application/json',
        headers: { 'access-control-allow-origin': origin },
        body: JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'down for a moment' } }),
      })
    return route.abort(kind)
  }
  await page.route(`**/payment-sessions/${order.id}/funding-transaction`, async (route) => {
    if (route.request().method() !== 'POST') return route.continue()
    const kind = ['503', 'timedout', 'connectionrefused'][reports.length]
    reports.push(kind ?? 'through')
    down = Boolean(kind)
    if (!kind) return route.continue()
    return fail(route, kind)
  })
  await page.route(`**/payment-sessions/${order.id}`, (route) =>
    down && route.request().method() === 'GET' ? fail(route, '503') : route.continue(),
  )
  await reviewPayButton(page).click()
  await waitForStep(page, ['submitted', 'confirming', 'waitingForService'])
  await state(page, testInfo, '1-service-down', false)
  await waitForStep(page, 'paid', 60_000)
  await expectPaidView(page)
  await state(page, testInfo, '2-paid-after-outage', false)
  // Reporting is idempotent: after the outage a report may go through more than once.
  expect(reports.slice(0, 4)).toEqual(['503', 'timedout', 'connectionrefused', 'through'])
  expect(reports.slice(4).every((r) => r === 'through')).toBe(true)
  const { events, steps } = await recorded(page)
  const hash = events.find((e) => e.type === 'paysession-funding-sent')!.detail.hash
  // The report finally reached the service.
  const session = await waitForStatus(order.id, 'FUNDED')
  expect(session.userSubmittedTransactionHash).toBe(hash)
  await expectTransfers(session.oneTimeWalletAddress, 1)
  expect(sends).toHaveLength(1)
  expect(steps).not.toContain('failed')
  await expectWebhooks(order.id, ['CREATED', 'PENDING', 'FUNDED'])
  expect(errors).toEqual([])
})

test('the RPC node is unreachable right after the wallet sent: the payment completes', async ({
  page,
}, testInfo) => {
  const order = await createOrder('notebook')
  await openCheckout(page, order.path)
  await connect(page)
  await chooseToken(page, 'USDC')
  // Once the wallet has sent the transfer, every chain read from the page is refused until the
  // widget has tried (and failed) a few times.
  const rpcDown = await rpcDownAfterSend(page)
  await reviewPayButton(page).click()
  await expect.poll(() => rpcDown.refused, { timeout: 30_000 }).toBeGreaterThanOrEqual(3)
  await testInfo.attach('step-while-rpc-down', { body: await currentStep(page) })
  await state(page, testInfo, '1-rpc-down', false)
  rpcDown.restore()
  await waitForStep(page, 'paid', 60_000)
  await expectPaidView(page)
  await expectPaidOnce(order.id)
  expect(rpcDown.sent).toBe(1)
  expect((await recorded(page)).steps).not.toContain('failed')
})

test('manual payment with `paysession-sandbox pay`: the open widget shows paid', async ({
  page,
}, testInfo) => {
  const order = await createOrder('beanie') // 48.00 USD
  await openCheckout(page, order.path)
  const sends = countSends(page)
  await payButton(page).click()
  await waitForStep(page, 'chooseWallet')
  await dialog(page).getByRole('button', { name: 'Pay from another wallet or an exchange' }).click()
  await waitForStep(page, 'manual')
  const session = await getSession(order.id)
  const otw = session.oneTimeWalletAddress
  await expect(dialog(page).locator('[part~="address"]')).toHaveText(otw)
  await expect(
    dialog(page).getByText('Send exactly 48.00 USDC on Local test chain to this address:'),
  ).toBeVisible()
  await expect(dialog(page).getByRole('img', { name: /QR code to pay 48.00 USDC/ })).toBeVisible()
  await expect(dialog(page).getByRole('link', { name: 'Open in a wallet app' })).toHaveAttribute(
    'href',
    `ethereum:0x91A12B6130c0Ff0377B5817157A69bFeA67DfbbC@31337/transfer?address=${otw}&uint256=48000000`,
  )
  await state(page, testInfo, '1-manual')
  // The customer pays from a terminal, with the sandbox's CLI (as customer 2, whom no other test
  // uses: the CLI signs with the key, so it must not race another sender for a nonce).
  const out = await payWithCli(order.id, '--customer', '2')
  expect(out).toContain(`sent 48.00 USDC to ${otw}`)
  await waitForStep(page, 'paid', 30_000)
  await expectPaidView(page)
  await state(page, testInfo, '2-paid-manually')
  const funded = await waitForStatus(order.id, 'FUNDED')
  const [log] = await expectTransfers(otw, 1)
  expect(log!.transactionHash).toBe(funded.fundingTransactionHash)
  expect(out).toContain(funded.fundingTransactionHash!)
  expect(sends).toHaveLength(0)
  await expectWebhooks(order.id, ['CREATED', 'FUNDED'])
})
