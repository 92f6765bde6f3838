import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, type Page, test } from '@playwright/test'
import { axeViolations } from '../../scripts/axe.mjs'
import { serveStatic } from '../../scripts/serve-static.mjs'
import {
  chooseToken,
  currentStep,
  dialog,
  expectPaidView,
  payButton,
  reviewPayButton,
  setupWallet,
  waitForStep,
  watchPage,
} from '../support/widget.js'

// The hosted demo (apps/demo/dist/hosted, built by hosted-setup.ts as by `npm run build:hosted`)
// in a run of its own (hosted.config.ts: `npm run test:hosted` here), served the way a static host
// serves it: files only, under a sub-path (scripts/serve-static.mjs). No sandbox, no
// anvil, no demo server takes part: the chain, the service and the merchant run in the tab, and
// every request the page makes is checked to stay on this static origin.

const folder = fileURLToPath(new URL('../../apps/demo/dist/hosted', import.meta.url))
const base = '/some/sub/path/'

let server: Awaited<ReturnType<typeof serveStatic>> | undefined
let origin = ''

test.beforeAll(async () => {
  if (!existsSync(join(folder, 'index.html')))
    throw new Error('apps/demo/dist/hosted is not built: run `npm run build:hosted` first')
  server = await serveStatic({ folder, base })
  origin = server.origin
})

test.afterAll(() => server?.close())

/** Every URL the page requests; the test ends by checking they all stayed on the static site. */
function recordRequests(page: Page) {
  const urls: string[] = []
  page.on('request', (request) => urls.push(request.url()))
  return {
    urls,
    expectAllStatic() {
      const away = urls.filter((url) => {
        if (url.startsWith('data:') || url.startsWith('blob:')) return false
        const parsed = new URL(url)
        return parsed.origin !== origin || !parsed.pathname.startsWith(base)
      })
      expect(away, 'requests that left the static site').toEqual([])
      expect(urls.length).toBeGreaterThan(3)
    },
  }
}

async function openShop(page: Page) {
  await watchPage(page)
  await page.goto(`${origin}${base}?wallet=autoapprove`)
  await expect(page.getByRole('note')).toContainText('Simulation.')
  await expect(page.getByRole('button', { name: 'Buy' })).toHaveCount(4)
}

/** axe on the whole page (the simulation banner, its Reset, the page): no violations. */
async function expectAxeClean(page: Page) {
  const violations = await axeViolations(page)
  expect(
    violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([])
}

/** Shop → Buy → the checkout with the script-tag widget, paid with the Sandbox Wallet. */
async function buyAndPay(page: Page, product: string, token: string) {
  await page
    .locator('li.product', { hasText: product })
    .getByRole('button', { name: 'Buy' })
    .click()
  await expect(page).toHaveURL(/#\/checkout\/ps_/)
  const id = /#\/checkout\/([^/?]+)/.exec(page.url())![1]!
  await setupWallet(page, 0)
  await expect(payButton(page)).toHaveText(/Pay /)
  await payButton(page).click()
  // A returning customer's wallet is connected already: the widget skips the wallet choice.
  await waitForStep(page, ['chooseWallet', 'chooseToken', 'review'])
  if ((await currentStep(page)) === 'chooseWallet')
    await dialog(page).getByRole('button', { name: 'Sandbox Wallet' }).click()
  await chooseToken(page, token)
  await reviewPayButton(page).click()
  await waitForStep(page, 'paid')
  await expectPaidView(page)
  return id
}

const balance = (page: Page, account: string, token: string) =>
  page.locator('table.balances tr', { hasText: account }).locator(`td[data-label="${token}"]`)

test('hosted demo: shop → pay with the Sandbox Wallet → paid → partial and final capture → refund in the balances and the webhook log, all from the static site', async ({
  page,
}) => {
  const requests = recordRequests(page)
  await openShop(page)
  await expectAxeClean(page)
  // USDT: the test token whose transfer returns nothing, as the real one.
  const id = await buyAndPay(page, 'Field Notebook', 'USDT') // 12.00 USD

  // The checkout page points to the order, which the merchant's side shows paid.
  await page.keyboard.press('Escape')
  await page.getByRole('link', { name: 'View your order →' }).click()
  await expect(page).toHaveURL(new RegExp(`#/orders/${id}$`))
  await expect(page.getByTestId('order-status')).toHaveText('Paid')

  // The merchant console: @paysession/server in the page, against the service in the page.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /onsole/ })
    .click()
  const status = page.getByTestId('session-status')
  await expect(status).toHaveText('FUNDED')
  await expect(balance(page, 'Customer', 'USDT')).toHaveText('9,988.00')
  await expect(balance(page, 'One-time wallet', 'USDT')).toHaveText('12.00')
  const amount = page.getByLabel('Capture amount')
  await expect(amount).toHaveValue('12.00')
  await amount.fill('5.00')
  await page.getByRole('button', { name: 'Capture partial' }).click()
  const notice = page.getByRole('status').filter({ hasText: 'Capture' })
  await expect(notice).toContainText('of 5.00 completed.')
  await expect(page.getByTestId('capturable')).toHaveText('7.00')
  await expect(status).toHaveText('FUNDED')

  // Final capture of 4.50 out of 7.00: 2.50 goes back to the customer, on chain.
  await expect(amount).toHaveValue('7.00')
  await amount.fill('4.50')
  await page.getByRole('button', { name: 'Final capture' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Final capture' })).toContainText(
    'of 4.50 completed, 2.50 refunded to the customer.',
  )
  await expect(status).toHaveText('SUCCEEDED')
  await expect(page.locator('.capture-closed')).toContainText(
    'Settled: 9.50 USDT captured, 2.50 USDT refunded to the customer.',
  )
  await expect(page.locator('table.captures tbody tr')).toHaveCount(2)
  await expectAxeClean(page)
  await expect(balance(page, 'Customer', 'USDT')).toHaveText('9,990.50')
  await expect(balance(page, 'Treasury', 'USDT')).toHaveText('9.50')
  await expect(balance(page, 'One-time wallet', 'USDT')).toHaveText('0.00')

  // The webhook log: every status the in-page service posted, verified by the merchant's
  // handler (@paysession/server) and confirmed back with the API.
  const rows = page.locator('[data-live="webhooks"] tbody tr')
  const statuses = ['CREATED', 'PENDING', 'FUNDED', 'CAPTURING', 'FUNDED', 'CAPTURING', 'SUCCEEDED']
  await expect(rows).toHaveCount(statuses.length)
  await expect(rows.filter({ hasText: 'Signature verified' })).toHaveCount(statuses.length)
  await expect(rows.first().locator('td[data-label="Status"]')).toHaveText('SUCCEEDED')
  await expect(rows.first().locator('td[data-label="Confirmed with API"]')).toHaveText('SUCCEEDED')
  await expect(rows.last().locator('td[data-label="Status"]')).toHaveText('CREATED')

  // The customer's order page follows.
  await page.goto(`${origin}${base}#/orders/${id}`)
  await expect(page.getByTestId('order-status')).toHaveText('Complete')
  await expect(page.getByTestId('order-refund')).toHaveText('2.50 USDT refunded')
  requests.expectAllStatic()
})

test('hosted demo: a reload keeps the chain, the service and the merchant; reset starts over', async ({
  page,
}) => {
  const requests = recordRequests(page)
  await openShop(page)
  const id = await buyAndPay(page, 'Stoneware Mug', 'USDC') // 24.50 USD

  // Reload: the chain replays its journal, the service and the merchant resume from IndexedDB.
  await page.reload()
  await expect(page.locator('paysession-checkout [part~="button"]')).toHaveText('Paid')
  await page.goto(`${origin}${base}#/console?session=${id}`)
  await page.reload()
  await expect(page.getByTestId('session-status')).toHaveText('FUNDED')
  await expect(balance(page, 'Customer', 'USDC')).toHaveText('9,975.50')
  await expect(page.locator('[data-live="webhooks"] tbody tr')).toHaveCount(3)

  // The replayed chain and the resumed service still work together: a final capture settles.
  await page.getByLabel('Capture amount').fill('20.00')
  await page.getByRole('button', { name: 'Final capture' }).click()
  await expect(page.getByTestId('session-status')).toHaveText('SUCCEEDED')
  await expect(balance(page, 'Customer', 'USDC')).toHaveText('9,980.00')
  await expect(balance(page, 'Treasury', 'USDC')).toHaveText('20.00')

  // A second tab of the same browser does not start a second chain on the same saved state.
  const second = await page.context().newPage()
  await second.goto(`${origin}${base}#/console`)
  await expect(second.locator('[data-world-status]')).toContainText('open in another tab', {
    timeout: 15_000,
  })
  await second.close()

  // Reset: a new chain and an empty shop.
  await page.getByRole('button', { name: 'Reset' }).click()
  await expect(page).toHaveURL(new RegExp(`${base}#/$`))
  await expect(page.getByRole('button', { name: 'Buy' })).toHaveCount(4)
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /onsole/ })
    .click()
  await expect(page.locator('[data-live="sessions"]')).toContainText('No sessions yet.')
  await expect(page.locator('[data-live="webhooks"]')).toContainText('No webhooks received yet.')
  requests.expectAllStatic()
})

test('hosted demo: a reload at any moment (during the first start, right after Pay, in the middle of a final capture) loses nothing and sends nothing twice', async ({
  page,
}) => {
  const requests = recordRequests(page)
  // The first start deploys the test tokens and funds the customers: cut it short, repeatedly.
  for (const delay of [30, 120, 250]) {
    await openShop(page)
    await page.waitForTimeout(delay)
    await page.reload()
  }
  await openShop(page)
  let customer = 10_000
  let treasury = 0
  const money = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 2 })

  // The customer presses Pay on the review step and the page reloads at once: the wallet, the
  // chain and the service stop mid-payment. Either the transfer made it into the chain (the
  // session ends FUNDED, 12.00 left the customer once) or it did not (CREATED, nothing left).
  for (const delay of [0, 20]) {
    await page.goto(`${origin}${base}#/`)
    await page
      .locator('li.product', { hasText: 'Field Notebook' })
      .getByRole('button', { name: 'Buy' })
      .click()
    await expect(page).toHaveURL(/#\/checkout\/ps_/)
    const id = /#\/checkout\/([^/?]+)/.exec(page.url())![1]!
    await setupWallet(page, 0)
    await payButton(page).click()
    await waitForStep(page, ['chooseWallet', 'chooseToken', 'review'])
    if ((await currentStep(page)) === 'chooseWallet')
      await dialog(page).getByRole('button', { name: 'Sandbox Wallet' }).click()
    await chooseToken(page, 'USDC')
    await reviewPayButton(page).click()
    await page.waitForTimeout(delay)
    await page.reload()
    // The service's scan of the replayed chain settles: the console is read again until its
    // status agrees with the one-time wallet's balance on chain, or 20 s pass (then the checks
    // below fail with what they saw).
    let status: string | null = null
    for (let read = 0; read < 18; read++) {
      // Hash navigation only (a reload would restart the tab's chain and service, and the scan).
      if (read > 0) await page.goto(`${origin}${base}#/`)
      await page.goto(`${origin}${base}#/console?session=${id}`)
      await page.waitForTimeout(read === 0 ? 3000 : 1000)
      status = await page.getByTestId('session-status').textContent()
      const funds = await balance(page, 'One-time wallet', 'USDC').textContent()
      if ((status === 'FUNDED') === (funds === '12.00')) break
    }
    expect(status).toMatch(/^(FUNDED|CREATED)$/)
    if (status === 'FUNDED') {
      customer -= 12
      await expect(balance(page, 'Customer', 'USDC')).toHaveText(money(customer))
      await expect(balance(page, 'One-time wallet', 'USDC')).toHaveText('12.00')
    } else {
      // No customer is known yet; the rounds below check the customer's balance to the cent.
      await expect(balance(page, 'One-time wallet', 'USDC')).toHaveText('0.00')
    }
  }

  // Each round reloads the page (the tab's whole world stops, as on a crash) a little later
  // after the merchant pressed "Final capture": before, while and after the transfers are sent.
  for (const delay of [0, 15, 60]) {
    await page.goto(`${origin}${base}#/`)
    const id = await buyAndPay(page, 'Field Notebook', 'USDC') // 12.00 USD
    customer -= 12
    await page.goto(`${origin}${base}#/console?session=${id}`)
    await expect(page.getByTestId('session-status')).toHaveText('FUNDED')
    await page.getByLabel('Capture amount').fill('10.00')
    await page.getByRole('button', { name: 'Final capture' }).click()
    await page.waitForTimeout(delay)
    await page.reload()
    await page.goto(`${origin}${base}#/console?session=${id}`)
    const status = page.getByTestId('session-status')
    // Either the capture reached the service before the reload (CAPTURING, or done already: it
    // completes after the reload), or it did not (FUNDED, no capture: the merchant presses again).
    await expect(status).toHaveText(/^(SUCCEEDED|FUNDED|CAPTURING)$/)
    if (
      (await status.textContent()) === 'FUNDED' &&
      (await page.locator('table.captures').count()) === 0
    ) {
      await page.getByLabel('Capture amount').fill('10.00')
      await page.getByRole('button', { name: 'Final capture' }).click()
    }
    await expect(status).toHaveText('SUCCEEDED')
    customer += 2
    treasury += 10
    await expect(page.locator('table.captures tbody tr')).toHaveCount(1)
    await expect(balance(page, 'One-time wallet', 'USDC')).toHaveText('0.00')
    await expect(balance(page, 'Customer', 'USDC')).toHaveText(money(customer))
    await expect(balance(page, 'Treasury', 'USDC')).toHaveText(money(treasury))
  }
  requests.expectAllStatic()
})
