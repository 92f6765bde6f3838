// "Never twice": a reload at each step of the flow never leads to a second transfer, and the
// page ends paid. (The reload while confirming with automine off is in exclusive.spec.ts.)
import { expect, type Page, test } from '@playwright/test'
import {
  createOrder,
  customers,
  env,
  expectPaidOnce,
  expectTransfers,
  expectWebhooks,
  getSession,
  sendToken,
  units,
  waitForStatus,
} from '../support/demo.js'
import {
  chooseToken,
  connect,
  countSends,
  dialog,
  expectPaidView,
  openCheckout,
  payButton,
  recorded,
  reviewPayButton,
  setWalletMode,
  state,
  stepText,
  waitForStep,
  walletDialog,
} from '../support/widget.js'

/**
 * A wallet prompt opened before a reload (or in another tab) may still be answered: the widget
 * says so as a notice, not an error, shows when the customer can pay again, and never tells a
 * screen reader the payment was sent.
 */
async function expectPromptElsewhere(page: Page) {
  await expect(dialog(page).locator('[part~="notice"]')).toHaveText(
    'Your wallet may still be showing a request for this payment. Confirm or reject it there.',
  )
  await expect(stepText(page, /You can pay again here in \d{1,3} seconds?\./)).toBeVisible()
  await expect(dialog(page).getByRole('alert')).toHaveCount(0)
  await expect(dialog(page).getByRole('button', { name: 'Try again' })).toHaveCount(0)
  await expect(dialog(page).getByRole('status')).not.toContainText('sent')
}

/** Connects and reviews without asking, then presses Pay: the wallet's send prompt is open. */
async function openWalletPrompt(page: Page, path: string) {
  await openCheckout(page, path, 0, 'ask')
  await setWalletMode(page, 'autoapprove')
  await connect(page)
  await chooseToken(page, 'USDC')
  await setWalletMode(page, 'ask')
  await reviewPayButton(page).click()
  await expect(walletDialog(page)).toHaveAttribute('data-kind', 'send')
}

test('reload before connecting, and after connecting: one transfer, paid', async ({
  page,
}, testInfo) => {
  const order = await createOrder('notebook')
  await openCheckout(page, order.path)
  const sends = countSends(page)
  // The button waits for the session (held here) before it offers to pay.
  let release!: () => void
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route(`**/payment-sessions/${order.id}`, async (route) => {
    await held
    await route.continue()
  })
  await page.reload()
  await expect(payButton(page)).toHaveText('Loading payment…')
  await expect(payButton(page)).toBeDisabled()
  await state(page, testInfo, '1-loading')
  release()
  await expect(payButton(page)).toHaveText('Pay $12.00')
  await connect(page)
  // Reload once connected: the wallet stays connected and the widget resumes at the coin choice.
  await page.reload()
  await expect(payButton(page)).toHaveText('Pay $12.00')
  await payButton(page).click()
  await waitForStep(page, 'chooseToken')
  await chooseToken(page, 'USDC')
  await reviewPayButton(page).click()
  await waitForStep(page, 'paid')
  await expectPaidView(page)
  const session = await expectPaidOnce(order.id)
  expect(sends).toHaveLength(1)
  // And after paid: still paid, nothing to pay.
  await page.reload()
  await expect(payButton(page)).toHaveText('Paid')
  await payButton(page).click()
  await waitForStep(page, 'paid')
  await expect(reviewPayButton(page)).toHaveCount(0)
  await expectTransfers(session.oneTimeWalletAddress, 1)
})

test('reload with the wallet prompt open, then the wallet sends: one transfer, paid', async ({
  page,
}, testInfo) => {
  const order = await createOrder('notebook')
  await openWalletPrompt(page, order.path)
  await waitForStep(page, 'confirmInWallet')
  await page.reload()
  // A prompt may still be open (a wallet extension outlives the page): never a fresh pay button.
  await expect(payButton(page)).toHaveText('Payment in progress')
  await state(page, testInfo, '1-button-in-progress')
  await payButton(page).click()
  await waitForStep(page, 'waitingForService')
  await expectPromptElsewhere(page)
  await expect(reviewPayButton(page)).toHaveCount(0)
  await state(page, testInfo, '2-in-progress')
  // The customer approves in the wallet, which sends the transfer it was asked for.
  const session = await getSession(order.id)
  await sendToken(customers[0], 'USDC', session.oneTimeWalletAddress, units('12.00'))
  await waitForStep(page, 'paid')
  await expectPaidView(page)
  await expectPaidOnce(order.id)
})

test('reload with the wallet prompt open, prompt abandoned: offered again when the countdown ends', async ({
  page,
}, testInfo) => {
  const order = await createOrder('notebook')
  await openWalletPrompt(page, order.path)
  // The prompt opened a minute and a half ago (as if): half a minute is left to answer it.
  await page.evaluate((id) => {
    const key = `paysession:payment:${id}`
    const record = JSON.parse(localStorage.getItem(key)!)
    record.createdAt -= 120_000 - 30_000
    localStorage.setItem(key, JSON.stringify(record))
  }, order.id)
  // The page's clock runs as usual until the test moves it on: a busy machine never eats the wait.
  await page.clock.install()
  await page.reload()
  await setWalletMode(page, 'autoapprove') // this page's wallet answers what comes next
  await payButton(page).click()
  await waitForStep(page, 'waitingForService')
  await expectPromptElsewhere(page)
  await expect(stepText(page, /You can pay again here in \d+ seconds?\./)).toBeVisible()
  await state(page, testInfo, '1-countdown')
  // No click: when the time is up the payment is offered again, and paid once.
  await page.clock.fastForward(30_000)
  await waitForStep(page, 'chooseToken', 15_000)
  const sends = countSends(page)
  await chooseToken(page, 'USDC')
  await reviewPayButton(page).click()
  await waitForStep(page, 'paid')
  await expectPaidOnce(order.id)
  expect(sends).toHaveLength(1)
})

test('reload with the wallet prompt open, prompt abandoned: pays once, later', async ({ page }) => {
  const order = await createOrder('notebook')
  await openWalletPrompt(page, order.path)
  await page.reload()
  await expect(payButton(page)).toHaveText('Payment in progress')
  // Nothing reached the chain and the prompt is long gone (its record is 10 minutes old).
  await page.evaluate((id) => {
    const key = `paysession:payment:${id}`
    const record = JSON.parse(localStorage.getItem(key)!)
    record.createdAt -= 10 * 60_000
    localStorage.setItem(key, JSON.stringify(record))
  }, order.id)
  await page.goto(`${env.demo}${order.path}?wallet=autoapprove`)
  const sends = countSends(page)
  await expect(payButton(page)).toHaveText('Pay $12.00')
  await payButton(page).click()
  await waitForStep(page, 'chooseToken')
  await chooseToken(page, 'USDC')
  await reviewPayButton(page).click()
  await waitForStep(page, 'paid')
  await expectPaidOnce(order.id)
  expect(sends).toHaveLength(1)
})

test('reload right after the hash, before the service heard of it: one transfer, paid', async ({
  page,
}) => {
  const order = await createOrder('notebook')
  await openCheckout(page, order.path)
  const sends = countSends(page)
  // The report of the hash never leaves this page: it reloads first.
  let reported!: () => void
  const reportSeen = new Promise<void>((resolve) => {
    reported = resolve
  })
  await page.route(`**/payment-sessions/${order.id}/funding-transaction`, () => reported())
  await connect(page)
  await chooseToken(page, 'USDC')
  await reviewPayButton(page).click()
  await reportSeen
  const { events } = await recorded(page)
  const hash = events.find((e) => e.type === 'paysession-funding-sent')!.detail.hash
  await page.unrouteAll({ behavior: 'ignoreErrors' })
  await page.reload()
  await expect(payButton(page)).toHaveText(/Payment in progress|Paid/)
  await payButton(page).click()
  await waitForStep(page, 'paid')
  await expectPaidView(page)
  const session = await waitForStatus(order.id, 'FUNDED')
  // Reported again after the reload.
  await expect
    .poll(async () => (await getSession(order.id)).userSubmittedTransactionHash)
    .toBe(hash)
  const [log] = await expectTransfers(session.oneTimeWalletAddress, 1)
  expect(log!.transactionHash).toBe(hash)
  expect(sends).toHaveLength(1)
  await expectWebhooks(order.id, ['CREATED', 'PENDING', 'FUNDED'])
})

test('double click on pay: one prompt, one transfer', async ({ page }) => {
  const order = await createOrder('notebook')
  await openCheckout(page, order.path)
  const sends = countSends(page)
  await connect(page)
  await chooseToken(page, 'USDC')
  await reviewPayButton(page).dblclick()
  await waitForStep(page, 'paid')
  await expectPaidOnce(order.id)
  expect(sends).toHaveLength(1)
  const { steps } = await recorded(page)
  expect(steps.filter((s) => s === 'confirmInWallet')).toHaveLength(1)
})

test('two pages at once: both press Pay at the same moment, one transfer on chain', async ({
  context,
}, testInfo) => {
  const order = await createOrder('notebook')
  const pages = [await context.newPage(), await context.newPage()]
  await openCheckout(pages[0]!, order.path)
  await connect(pages[0]!)
  await chooseToken(pages[0]!, 'USDC')
  // The second page shares the wallet connection (same site): straight to the token choice.
  await openCheckout(pages[1]!, order.path)
  await payButton(pages[1]!).click()
  await waitForStep(pages[1]!, 'chooseToken')
  await chooseToken(pages[1]!, 'USDC')
  const sends = pages.map((page) => countSends(page))
  // The moment: each page reads the customer's balance right before it records the payment and
  // opens the wallet. Both reads are held until both pages are there, then answered together, so
  // the two pages decide at the same instant (what two clicks a few ms apart can do by chance).
  const balanceOfCustomer = `0x70a08231${customers[0].slice(2).toLowerCase().padStart(64, '0')}`
  let release!: () => void
  const together = new Promise<void>((resolve) => {
    release = resolve
  })
  let waiting = 0
  for (const page of pages)
    await page.route(
      (url) => url.href.startsWith(env.rpc),
      async (route) => {
        if ((route.request().postData() ?? '').includes(balanceOfCustomer) && waiting < 2) {
          if (++waiting === 2) release()
          await together
        }
        await route.continue()
      },
    )
  await Promise.all(pages.map((page) => reviewPayButton(page).click()))
  await Promise.all(pages.map((page) => waitForStep(page, 'paid')))
  for (const page of pages) await expectPaidView(page)
  await state(pages[1]!, testInfo, 'two-pages-paid')
  expect(waiting).toBe(2)
  expect(sends.flat()).toHaveLength(1)
  await expectPaidOnce(order.id)
})

test('the same session in two tabs: one transfer, both end paid', async ({ context }, testInfo) => {
  const order = await createOrder('notebook')
  const first = await context.newPage()
  const second = await context.newPage()
  await openCheckout(first, order.path, 0, 'ask')
  await setWalletMode(first, 'autoapprove')
  await connect(first)
  await chooseToken(first, 'USDC')
  await setWalletMode(first, 'ask')
  // The second tab shares the wallet connection (same site).
  await openCheckout(second, order.path, 0, 'ask')
  const sends = [countSends(first), countSends(second)]
  await payButton(second).click()
  await waitForStep(second, 'chooseToken')
  await chooseToken(second, 'USDC')
  // Tab 1 opens the wallet prompt; tab 2 presses Pay meanwhile.
  await reviewPayButton(first).click()
  await expect(walletDialog(first)).toHaveAttribute('data-kind', 'send')
  await reviewPayButton(second).click()
  await waitForStep(second, 'waitingForService')
  await expectPromptElsewhere(second)
  await expect(walletDialog(second)).toHaveCount(0)
  await state(second, testInfo, 'second-tab-in-progress')
  await walletDialog(first).locator('.approve').click()
  await waitForStep(first, 'paid')
  await waitForStep(second, 'paid')
  await expectPaidView(first)
  await expectPaidView(second)
  await expectPaidOnce(order.id)
  expect(sends.map((s) => s.length)).toEqual([1, 0])
})
