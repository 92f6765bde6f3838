// The demo's own pages around the widget: a phone's first screen, the wallet badge, dark mode.
import { expect, type Page, test } from '@playwright/test'
import { createOrder, env } from '../support/demo.js'
import { chooseToken, connect, dialog, openCheckout, payButton } from '../support/widget.js'

type Box = { x: number; y: number; width: number; height: number }
const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x - 0.5 &&
  inner.y >= outer.y - 0.5 &&
  inner.x + inner.width <= outer.x + outer.width + 0.5 &&
  inner.y + inner.height <= outer.y + outer.height + 0.5

/** The wallet's badge sits in the sandbox banner, not over the page. */
async function expectBadgeInBanner(page: Page) {
  const badge = page.locator('sandbox-wallet-ui .badge')
  await expect(badge).toBeVisible()
  const banner = (await page.locator('.sandbox-banner').boundingBox())!
  expect(inside((await badge.boundingBox())!, banner)).toBe(true)
  expect(await badge.evaluate((el) => getComputedStyle(el).position)).toBe('static')
}

test.describe('phone, 390×844', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })

  test('header on one line, the pay button above the fold, the wallet badge covers nothing', async ({
    page,
  }) => {
    const order = await createOrder('notebook')
    await openCheckout(page, order.path)
    const brand = (await page.locator('.brand').boundingBox())!
    for (const link of await page.locator('.site-header nav a').all()) {
      const box = (await link.boundingBox())!
      // Same row as the brand, and a single line of text.
      expect(Math.abs(box.y + box.height / 2 - (brand.y + brand.height / 2))).toBeLessThan(4)
      expect(box.height).toBeLessThan(48)
    }
    // "Merchant console" says "Console" on a phone; its name is the same at every width.
    await expect(page.getByRole('link', { name: 'Merchant console', exact: true })).toHaveText(
      'Console',
      { useInnerText: true },
    )
    const pay = (await payButton(page).boundingBox())!
    expect(pay.y + pay.height).toBeLessThanOrEqual(844)
    await expectBadgeInBanner(page)
  })

  test('console tables fit the width: one card per row, every value labelled', async ({ page }) => {
    await createOrder('mug')
    await page.goto(`${env.demo}/console`)
    await expect(page.locator('table.balances')).toBeVisible()
    const width = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(width).toBeLessThanOrEqual(390)
    for (const cell of await page.locator('table.balances td, table.webhooks td').all()) {
      const box = await cell.boundingBox()
      if (box) expect(box.x + box.width).toBeLessThanOrEqual(390)
    }
    const label = await page
      .locator('table.balances td')
      .first()
      .evaluate((el) => getComputedStyle(el, '::before').content)
    expect(label).toBe('"USDC"')
  })
})

test('desktop: the wallet badge covers nothing either', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  const order = await createOrder('notebook')
  await openCheckout(page, order.path)
  await expectBadgeInBanner(page)
})

test.describe('dark', () => {
  test.use({ colorScheme: 'dark' })

  test('the page is dark, and the accent it gives the widget reads at 4.5:1 in the dialog', async ({
    page,
  }) => {
    const order = await createOrder('notebook')
    await openCheckout(page, order.path)
    const paper = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    expect(paper).toBe('rgb(14, 20, 18)')
    await connect(page)
    await chooseToken(page, 'USDC')
    const change = dialog(page).getByRole('button', { name: /change/i })
    const ratio = await change.evaluate((el) => {
      const rgb = (text: string) => (text.match(/[\d.]+/g) ?? []).map(Number)
      const luminance = ([r, g, b]: number[]) => {
        const lin = (c: number) => {
          const v = c / 255
          return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4
        }
        return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!)
      }
      // The first opaque background behind the link, across the shadow boundary.
      let node: Element | null = el
      let background = [255, 255, 255]
      while (node) {
        const value = rgb(getComputedStyle(node).backgroundColor)
        if (value.length === 3 || (value.length === 4 && value[3] === 1)) {
          background = value.slice(0, 3)
          break
        }
        node = node.parentElement ?? ((node.getRootNode() as ShadowRoot).host || null)
      }
      const [a, b] = [luminance(rgb(getComputedStyle(el).color)), luminance(background)]
      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)
    })
    expect(ratio).toBeGreaterThanOrEqual(4.5)
  })
})
