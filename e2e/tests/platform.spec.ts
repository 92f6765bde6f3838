// The page around the widget: a strict Content-Security-Policy, a phone, a keyboard.
import { expect, type Page, test } from '@playwright/test'
import { createOrder, env, expectPaidOnce } from '../support/demo.js'
import {
  chooseToken,
  connect,
  dialog,
  expectAxeClean,
  expectPaidView,
  holdPaidEvent,
  openCheckout,
  payButton,
  recorded,
  releasePaidEvent,
  reviewPayButton,
  shot,
  state,
  waitForStep,
  walletDialog,
} from '../support/widget.js'

test('strict Content-Security-Policy on the checkout page: paid, zero violations', async ({
  page,
  context,
}, testInfo) => {
  const order = await createOrder('notebook')
  // The demo sends its own policy (checked below); this test replaces it with the strict one the
  // widget documents, so the widget is proven against that one.
  const policy = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ${env.api} ${env.rpc}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
  await page.route(`${env.demo}${order.path}**`, async (route) => {
    const response = await route.fetch()
    await route.fulfill({
      response,
      headers: { ...response.headers(), 'content-security-policy': policy },
    })
  })
  // A document fulfilled by page.route has no IP address, so Chromium's Local Network Access
  // treats it as public and would block its calls to the loopback API and RPC. A real merchant
  // page and service are both public; here both are 127.0.0.1, so the page is allowed to.
  await context.grantPermissions(['local-network-access'], { origin: env.demo })
  const { errors } = await openCheckout(page, order.path)
  expect((await page.request.get(page.url())).headers()['content-security-policy']).toContain(
    "frame-ancestors 'none'",
  )
  const messages: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) messages.push(m.text())
  })
  const response = await page.reload()
  expect(response?.headers()['content-security-policy']).toBe(policy)
  await connect(page)
  await chooseToken(page, 'USDC')
  await reviewPayButton(page).click()
  await waitForStep(page, 'paid')
  await expectPaidView(page)
  await state(page, testInfo, 'paid-under-csp', false)
  await expectPaidOnce(order.id)
  // No violation at all: neither the widget nor the demo's Sandbox Wallet.
  const { csp } = await recorded(page)
  await testInfo.attach('csp-violations', {
    body: JSON.stringify(csp, null, 2),
    contentType: 'application/json',
  })
  expect(csp).toEqual([])
  expect(messages).toEqual([])
  expect(errors).toEqual([])
})

test('mobile viewport (390×844, touch): the whole payment fits and works', async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  })
  const page = await context.newPage()
  await holdPaidEvent(page)
  try {
    const order = await createOrder('mug', 'spa')
    await openCheckout(page, order.path)
    const fits = async () => {
      const box = await dialog(page).boundingBox()
      expect(box).not.toBeNull()
      expect(box!.x).toBeGreaterThanOrEqual(0)
      expect(box!.x + box!.width).toBeLessThanOrEqual(390)
      expect(box!.y + box!.height).toBeLessThanOrEqual(844)
      // No sideways scrolling.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        390,
      )
    }
    await expect(payButton(page)).toHaveText('Pay $24.50')
    await payButton(page).scrollIntoViewIfNeeded()
    await state(page, testInfo, '1-mobile-button')
    await payButton(page).tap()
    await waitForStep(page, 'chooseWallet')
    await fits()
    await state(page, testInfo, '2-mobile-choose-wallet')
    await dialog(page).getByRole('button', { name: 'Sandbox Wallet' }).tap()
    await waitForStep(page, 'chooseToken')
    await fits()
    await state(page, testInfo, '3-mobile-choose-token')
    await dialog(page).getByRole('button', { name: /^USDT/ }).tap()
    await waitForStep(page, 'review')
    await fits()
    await state(page, testInfo, '4-mobile-review')
    await reviewPayButton(page).tap()
    await waitForStep(page, 'paid')
    await fits()
    await state(page, testInfo, '5-mobile-paid')
    await releasePaidEvent(page)
    const session = await expectPaidOnce(order.id)
    expect(session.tokenSymbol).toBe('USDT')
  } finally {
    await context.close()
  }
})

/** The element focused now, through shadow roots: its text, or its tag. */
const focused = (page: Page) =>
  page.evaluate(() => {
    let element = document.activeElement
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement
    const host = (element?.getRootNode() as ShadowRoot)?.host?.localName ?? 'document'
    return { host, text: element?.textContent?.trim().replace(/\s+/g, ' ') ?? '' }
  })

test('keyboard only: Tab, Enter and Escape through the whole payment', async ({
  page,
}, testInfo) => {
  const order = await createOrder('notebook')
  await openCheckout(page, order.path, 0, 'ask')
  await expect(payButton(page)).toHaveText('Pay $12.00')
  // Tab from the top of the page to the pay button.
  for (let i = 0; i < 30; i++) {
    const now = await focused(page)
    if (now.host === 'paysession-checkout' && now.text === 'Pay $12.00') break
    await page.keyboard.press('Tab')
  }
  await expect(payButton(page)).toBeFocused()
  await page.keyboard.press('Enter')
  await waitForStep(page, 'chooseWallet')
  const wallet = dialog(page).getByRole('button', { name: 'Sandbox Wallet' })
  await expect(wallet).toBeFocused()
  // Focus stays in the dialog both ways, and comes back around.
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Tab')
    expect((await focused(page)).host).toBe('paysession-checkout')
  }
  for (let i = 0; i < 5; i++) await page.keyboard.press('Shift+Tab')
  await expect(wallet).toBeFocused()
  await page.keyboard.press('Enter')
  // The wallet's prompt takes the focus; Escape there is a rejection.
  await expect(walletDialog(page)).toHaveAttribute('data-kind', 'connect')
  await page.keyboard.press('Escape')
  await waitForStep(page, 'chooseWallet')
  await expect(dialog(page).getByRole('alert')).toHaveText(
    'The request was declined in your wallet.',
  )
  await shot(page, testInfo, '1-keyboard-connect-declined')
  await expectAxeClean(page, testInfo, 'connect-declined')
  await expect(wallet).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(walletDialog(page)).toHaveAttribute('data-kind', 'connect')
  await page.keyboard.press('Enter') // "Connect" has the focus in the wallet's prompt
  await waitForStep(page, 'chooseToken')
  await expect(dialog(page).getByRole('button', { name: /^USDC/ })).toBeFocused()
  await page.keyboard.press('Enter')
  await waitForStep(page, 'review')
  await expect(reviewPayButton(page)).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(walletDialog(page)).toHaveAttribute('data-kind', 'send')
  await waitForStep(page, 'confirmInWallet')
  await page.keyboard.press('Enter') // "Approve"
  await waitForStep(page, 'paid')
  await expect(dialog(page).getByRole('button', { name: 'Done' })).toBeFocused()
  await shot(page, testInfo, '2-keyboard-paid')
  await page.keyboard.press('Escape')
  await expect(dialog(page)).toBeHidden()
  await expect(payButton(page)).toHaveText('Paid')
  await expect(payButton(page)).toBeFocused()
  await expectPaidOnce(order.id)
})
