// Reference screenshots of the hosted demo (apps/demo/docs/screenshots/hosted-*), built from the
// current sources and served as a static host serves it. Run with the demo's own:
// cd e2e && npx playwright test -c screenshots.config.ts
import { fileURLToPath } from 'node:url'
import { expect, type Page, test } from '@playwright/test'
import { serveStatic } from '../../scripts/serve-static.mjs'
import hostedSetup from '../hosted-setup.js'
import {
  chooseToken,
  currentStep,
  dialog,
  payButton,
  reviewPayButton,
  waitForStep,
} from '../support/widget.js'

const out = fileURLToPath(new URL('../../apps/demo/docs/screenshots/', import.meta.url))
const folder = fileURLToPath(new URL('../../apps/demo/dist/hosted', import.meta.url))
const variants = [
  { size: 'desktop', viewport: { width: 1280, height: 800 }, scheme: 'light' },
  { size: 'desktop', viewport: { width: 1280, height: 800 }, scheme: 'dark' },
  { size: 'phone', viewport: { width: 390, height: 844 }, scheme: 'light' },
  { size: 'phone', viewport: { width: 390, height: 844 }, scheme: 'dark' },
] as const

let server: Awaited<ReturnType<typeof serveStatic>>
test.beforeAll(async () => {
  hostedSetup()
  server = await serveStatic({ folder, base: '/demo/' })
})
test.afterAll(() => server?.close())

async function buyAndPay(page: Page) {
  await page
    .locator('li.product', { hasText: 'Stoneware Mug' })
    .getByRole('button', { name: 'Buy' })
    .click()
  await expect(payButton(page)).toHaveText(/Pay /)
  await payButton(page).click()
  await waitForStep(page, ['chooseWallet', 'chooseToken', 'review'])
  if ((await currentStep(page)) === 'chooseWallet')
    await dialog(page).getByRole('button', { name: 'Sandbox Wallet' }).click()
  await chooseToken(page, 'USDC')
  await reviewPayButton(page).click()
  await waitForStep(page, 'paid')
  await page.keyboard.press('Escape')
}

for (const { size, viewport, scheme } of variants)
  test(`hosted demo pages, ${size} ${scheme}`, async ({ browser }) => {
    const context = await browser.newContext({
      viewport,
      colorScheme: scheme,
      deviceScaleFactor: 1,
      ...(size === 'phone' ? { isMobile: true, hasTouch: true } : {}),
    })
    const page = await context.newPage()
    const save = (name: string) =>
      page.screenshot({
        path: `${out}hosted-${name}-${size}-${scheme}.png`,
        fullPage: true,
        animations: 'disabled',
        caret: 'hide',
      })
    await page.goto(`${server.url}?wallet=autoapprove`)
    await expect(page.locator('[data-world-status="ready"]')).toBeAttached({ timeout: 60_000 })
    await save('shop')
    await buyAndPay(page)
    await save('checkout-paid')
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /onsole/ })
      .click()
    await expect(page.getByTestId('session-status')).toHaveText('FUNDED')
    await save('console')
    await context.close()
  })
