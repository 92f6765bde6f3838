// Reference screenshots of the demo (apps/demo/docs/screenshots), shown by docs/demo.md and
// docs/getting-started.md. Run: cd e2e && npx playwright test -c screenshots.config.ts
import { fileURLToPath } from 'node:url'
import { type Browser, expect, type Page, test } from '@playwright/test'
import { createOrder, env, payWithCli, waitForStatus } from '../support/demo.js'
import {
  chooseToken,
  connect,
  dialog,
  openCheckout,
  payButton,
  payFully,
  reviewPayButton,
  walletDialog,
} from '../support/widget.js'

const out = fileURLToPath(new URL('../../apps/demo/docs/screenshots/', import.meta.url))
const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const
const schemes = ['light', 'dark'] as const

type Variant = { size: keyof typeof viewports; scheme: (typeof schemes)[number] }
const variants: Variant[] = (['desktop', 'phone'] as const).flatMap((size) =>
  schemes.map((scheme) => ({ size, scheme })),
)

async function pageFor(browser: Browser, { size, scheme }: Variant): Promise<Page> {
  const context = await browser.newContext({
    viewport: viewports[size],
    colorScheme: scheme,
    deviceScaleFactor: 1,
    ...(size === 'phone' ? { isMobile: true, hasTouch: true } : {}),
  })
  return context.newPage()
}

const save = (page: Page, name: string, { size, scheme }: Variant, fullPage = false) =>
  page.screenshot({
    path: `${out}${name}-${size}-${scheme}.png`,
    fullPage,
    animations: 'disabled',
    caret: 'hide',
  })

/** Console form posts go through the browser, token and all, as a merchant's would. */
async function captureFromConsole(page: Page, id: string, amount: string, final: boolean) {
  await page.goto(`${env.demo}/console?session=${id}`)
  await page.getByLabel('Capture amount').fill(amount)
  await page.getByRole('button', { name: final ? 'Final capture' : 'Capture partial' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'started' })).toBeVisible()
}

test('every demo page, 1280 and 390 px, light and dark', async ({ browser, page }) => {
  // One settled order (paid, partly captured, then the rest with a refund), one waiting to be
  // paid, one in the SPA.
  const settled = await createOrder('mug', 'script')
  await openCheckout(page, settled.path, 1)
  await payFully(page, 'USDC')
  await waitForStatus(settled.id, 'FUNDED')
  await captureFromConsole(page, settled.id, '10.00', false)
  await waitForStatus(settled.id, 'FUNDED')
  await captureFromConsole(page, settled.id, '8.00', true)
  await waitForStatus(settled.id, 'SUCCEEDED')
  const waiting = await createOrder('notebook', 'script')
  const paid = await createOrder('beanie', 'script')
  await payWithCli(paid.id)
  await waitForStatus(paid.id, 'FUNDED')
  const spa = await createOrder('tamper', 'spa')

  for (const variant of variants) {
    const p = await pageFor(browser, variant)
    await p.goto(`${env.demo}/`)
    await save(p, 'shop', variant)

    await p.goto(`${env.demo}${waiting.path}`)
    await expect(payButton(p)).toHaveText(/Pay /)
    await save(p, 'checkout', variant)

    await p.goto(`${env.demo}/orders/${settled.id}`)
    await expect(p.getByTestId('order-refund')).toBeVisible()
    await save(p, 'order', variant)

    await p.goto(`${env.demo}/console?session=${settled.id}`)
    await expect(p.locator('[data-live="webhooks"] tbody tr').first()).toBeVisible()
    await save(p, 'console', variant, true)

    await p.goto(`${env.demo}${spa.path}`)
    await expect(payButton(p)).toHaveText(/Pay /)
    await save(p, 'spa', variant)
    await p.context().close()
  }

  // An order paid and not yet captured: the timeline's current step.
  const variant = { size: 'desktop', scheme: 'light' } as const
  const p = await pageFor(browser, variant)
  await p.goto(`${env.demo}/orders/${paid.id}`)
  await expect(p.locator('.step-current')).toBeVisible()
  await save(p, 'order-paid', variant)
  await p.context().close()

  // The review step, themed with the shop's accent for each scheme.
  for (const variant of [
    { size: 'desktop', scheme: 'dark' },
    { size: 'phone', scheme: 'light' },
  ] as const) {
    const p = await pageFor(browser, variant)
    const order = await createOrder('beanie', 'script')
    await openCheckout(p, order.path, 3, 'autoapprove')
    await connect(p)
    await chooseToken(p, 'USDC')
    await expect(reviewPayButton(p)).toBeVisible()
    await save(p, 'checkout-review', variant)
    await p.context().close()
  }

  // The Sandbox Wallet asking before it sends, on the review step of the checkout.
  for (const variant of [
    { size: 'desktop', scheme: 'light' },
    { size: 'phone', scheme: 'dark' },
  ] as const) {
    const p = await pageFor(browser, variant)
    const order = await createOrder('notebook', 'script')
    await openCheckout(p, order.path, 2, 'autoapprove')
    await connect(p)
    await chooseToken(p, 'USDC')
    await p.evaluate(() => (window as any).__sandboxWallet.setMode('ask'))
    await reviewPayButton(p).click()
    await expect(walletDialog(p)).toBeVisible()
    await expect(dialog(p)).toBeVisible()
    await save(p, 'checkout-wallet', variant)
    await p.evaluate(() => (window as any).__sandboxWallet.reject())
    await p.context().close()
  }
})
