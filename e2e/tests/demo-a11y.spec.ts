// The demo's own pages as accessible as the widget: every page, and the Sandbox Wallet with its
// connect and send prompts open, at 1280 and 390 px, each state in light and then in dark. Each state is axe-clean (the
// whole page and the wallet's shadow root; the widget is checked in its own specs; in dark, the
// colour rules, the rest being the same page), every link and button is found by the text it
// shows, and on a phone every tap target is at least 44 × 44 px.
import { expect, type Page, test } from '@playwright/test'
import { axeViolations } from '../../scripts/axe.mjs'
import { createOrder, env, type Order, payWithCli, waitForStatus } from '../support/demo.js'
import {
  chooseToken,
  dialog,
  openCheckout,
  payButton,
  reviewPayButton,
  waitForStep,
  walletDialog,
} from '../support/widget.js'

// Each width is one context (a phone has touch); light and dark are the same page with the colour
// scheme switched, so each state is rendered once and checked in both.
const widths = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const

async function expectAxeClean(page: Page, state: string, colorsOnly: boolean) {
  // The widget has its own axe checks in every state (tests/*.spec.ts, packages/checkout).
  // Dark mode changes colours only: the rest of the page was checked in light at the same width.
  const violations = await axeViolations(
    page,
    { exclude: [['paysession-checkout']] },
    colorsOnly
      ? { runOnly: { type: 'rule', values: ['color-contrast', 'link-in-text-block'] } }
      : {},
  )
  expect
    .soft(
      violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      `axe on ${state}`,
    )
    .toEqual([])
}

/**
 * The page's own controls (the widget has its own audit), the Sandbox Wallet's included: what
 * each shows, and how big it is. A radio or checkbox inside its label is tapped through the label.
 */
const controls = (page: Page) =>
  page.evaluate(() => {
    const selector =
      'a[href], button, select, input:not([type="hidden"]), textarea, summary, [tabindex]:not([tabindex="-1"])'
    // The text it shows, less what is only decoration (aria-hidden, such as the brand's mark).
    // biome-ignore-start lint/performance/useDomNodeTextContent: what is rendered, not the DOM's text (the desktop half of a label is display:none on a phone)
    const shown = (element: HTMLElement) => {
      let text = element.innerText
      for (const hidden of element.querySelectorAll<HTMLElement>('[aria-hidden="true"]'))
        text = text.replace(hidden.innerText, '')
      // biome-ignore-end lint/performance/useDomNodeTextContent: as above
      return text.replace(/\s+/g, ' ').trim()
    }
    const roots: (Document | ShadowRoot)[] = [document]
    const wallet = document.querySelector('sandbox-wallet-ui')?.shadowRoot
    if (wallet) roots.push(wallet)
    return roots.flatMap((root) =>
      [...root.querySelectorAll<HTMLElement>(selector)].flatMap((element) => {
        if (element.closest('paysession-checkout')) return []
        const label = element.closest('label')
        const target =
          label && element.matches('input[type="radio"], input[type="checkbox"]') ? label : element
        const box = target.getBoundingClientRect()
        // Hidden, or inside a closed dialog or details: nothing to tap.
        if (box.width === 0 || box.height === 0 || !element.checkVisibility()) return []
        return [
          {
            html: element.outerHTML.slice(0, 120),
            role: element.matches('a[href]') ? 'link' : element.matches('button') ? 'button' : '',
            text: shown(element),
            width: box.width,
            height: box.height,
          },
        ]
      }),
    )
  })

async function expectControls(page: Page, phone: boolean, state: string) {
  const found = await controls(page)
  expect(found.length, `controls on ${state}`).toBeGreaterThan(0)
  if (phone) {
    const small = found.filter((c) => c.width < 44 || c.height < 44)
    expect
      .soft(
        small.map((c) => `${Math.round(c.width)}×${Math.round(c.height)} ${c.html}`),
        `tap targets under 44 px on ${state}`,
      )
      .toEqual([])
  }
  // Voice control and a test alike: "click <what it says>" finds it. The page's accessibility
  // tree, read once: each link and button's name contains the text it shows.
  const tree = await page.locator('body').ariaSnapshot()
  const names = (role: string) =>
    [...tree.matchAll(new RegExp(`- ${role} "((?:[^"\\\\]|\\\\.)*)"`, 'g'))].map((m) =>
      JSON.parse(`"${m[1]}"`).toLowerCase(),
    )
  const named = { link: names('link'), button: names('button') }
  for (const { role, text } of found) {
    if (!role || !text) continue
    expect
      .soft(
        named[role as 'link' | 'button'].some((name) => name.includes(text.toLowerCase())),
        `${role} "${text}" by its visible name on ${state}`,
      )
      .toBe(true)
  }
}

/** One state, in light (every rule) and then dark (the colour rules: the rest is the same page). */
async function check(page: Page, phone: boolean, state: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    const at = `${state} (${phone ? 390 : 1280} px, ${scheme})`
    // One name at every width: the link says "Console" on a phone, its name is still this.
    await expect
      .soft(page.getByRole('link', { name: 'Merchant console', exact: true }))
      .toBeVisible()
    await expect.soft(page.getByRole('link', { name: 'Shop', exact: true }).first()).toBeVisible()
    await expectAxeClean(page, at, scheme === 'dark')
    await expectControls(page, phone, at)
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

let paid: Order
let spa: Order
test.beforeAll(async () => {
  paid = await createOrder('beanie', 'script')
  await payWithCli(paid.id)
  await waitForStatus(paid.id, 'FUNDED')
  spa = await createOrder('tamper', 'spa')
})

for (const { width, height } of widths) {
  const phone = width < 640
  test.describe(`${width} px, light and dark`, () => {
    test.use({
      viewport: { width, height },
      colorScheme: 'light',
      ...(phone ? { isMobile: true, hasTouch: true } : {}),
    })

    test('shop, order, console, SPA and not-found pages', async ({ page }) => {
      await page.goto(`${env.demo}/`)
      await check(page, phone, 'shop')

      await page.goto(`${env.demo}/orders/${paid.id}`)
      await expect(page.getByTestId('order-status')).toBeVisible()
      await check(page, phone, 'order')

      await page.goto(`${env.demo}/console?session=${paid.id}`)
      await expect(page.locator('[data-live="webhooks"] tbody tr').first()).toBeVisible()
      await check(page, phone, 'console')

      await page.goto(`${env.demo}${spa.path}`)
      await expect(payButton(page)).toHaveText(/Pay /)
      await check(page, phone, 'SPA checkout')

      await page.goto(`${env.demo}/orders/ps_none`)
      await check(page, phone, 'not found')
    })

    test('checkout page, and the Sandbox Wallet asking to connect and to send', async ({
      page,
    }) => {
      const order = await createOrder('notebook', 'script')
      await openCheckout(page, order.path, 0, 'ask')
      await expect(payButton(page)).toHaveText(/Pay /)
      await check(page, phone, 'checkout')

      await payButton(page).click()
      await waitForStep(page, 'chooseWallet')
      await dialog(page).getByRole('button', { name: 'Sandbox Wallet' }).click()
      await expect(walletDialog(page)).toHaveAttribute('data-kind', 'connect')
      await check(page, phone, 'wallet: connect prompt')
      await walletDialog(page).getByRole('button', { name: 'Connect' }).click()

      await chooseToken(page, 'USDC')
      await reviewPayButton(page).click()
      await expect(walletDialog(page)).toHaveAttribute('data-kind', 'send')
      await check(page, phone, 'wallet: send prompt')
      if (!phone) {
        await walletDialog(page).getByRole('button', { name: 'Reject' }).click()
        await waitForStep(page, 'review')
        return
      }
      // On a phone, paid: the page's "View your order →" is a tap target too.
      await walletDialog(page).getByRole('button', { name: 'Approve' }).click()
      await waitForStep(page, 'paid')
      await page.keyboard.press('Escape')
      await expect(page.getByRole('link', { name: 'View your order →' })).toBeVisible()
      await check(page, phone, 'checkout, paid')
    })
  })
}
