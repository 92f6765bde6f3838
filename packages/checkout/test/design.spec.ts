import { expect, type Page, test } from '@playwright/test'
import {
  advanceClock,
  createSession,
  dialog,
  events,
  expectAxeClean,
  openPage,
  payButton,
  referenceShot,
  smallTapTargets,
  waitForStatus,
  waitForStep,
} from './support.js'

// What a customer sees on every step, on a 1280 px screen and a 390 px phone, light and dark: who
// is paid and how much, an axe-clean dialog, and no control smaller than 44×44 CSS px. Each step
// is rendered once and checked in the four variants (the viewport and colour scheme switched on
// the same page). `npm run screenshots` also writes each step to docs/<step>-<variant>.png.

const merchant = 'Harbor & Pine'
const variants = [
  { name: 'light', viewport: { width: 1280, height: 800 }, scheme: 'light' },
  { name: 'dark', viewport: { width: 1280, height: 800 }, scheme: 'dark' },
  { name: 'phone', viewport: { width: 390, height: 844 }, scheme: 'light' },
  { name: 'phone-dark', viewport: { width: 390, height: 844 }, scheme: 'dark' },
] as const

/** The checks every step passes in every variant, then its reference screenshot. */
async function check(page: Page, step: string, total?: string) {
  for (const variant of variants) {
    await page.setViewportSize(variant.viewport)
    await page.emulateMedia({ colorScheme: variant.scheme })
    if (total) {
      await expect(dialog(page).locator('[part~="title"]')).toHaveText(merchant)
      await expect(dialog(page).locator('[part~="total"]')).toHaveText(total)
      await expect(dialog(page).locator('[part~="total"]')).toBeInViewport()
    }
    await expectAxeClean(page)
    expect(
      await smallTapTargets(page),
      `controls under 44×44 px on ${step} (${variant.name})`,
    ).toEqual([])
    await referenceShot(page, `${step}-${variant.name}`)
  }
}

test('wallet steps in every variant: who and how much, axe, 44 px controls', async ({ page }) => {
  test.setTimeout(180_000) // each step checked four times: four one-variant tests' time
  const session = await createSession('24.50', 'USD')
  await openPage(page, session, { merchant })
  await expect(payButton(page)).toHaveText('Pay $24.50')
  await check(page, 'button')
  await payButton(page).click()
  await waitForStep(page, 'chooseWallet')
  await check(page, 'choose-wallet', '$24.50')
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
  await waitForStep(page, 'chooseToken')
  await check(page, 'choose-token', '$24.50')
  await dialog(page).getByRole('button', { name: /USDC/ }).click()
  await waitForStep(page, 'review')
  await check(page, 'review', '$24.50')
  // The address's label sits on its first line, not between the address and its copy button,
  // at both widths.
  for (const { viewport } of [variants[0], variants[2]]) {
    await page.setViewportSize(viewport)
    const label = await dialog(page).locator('dt', { hasText: 'To' }).boundingBox()
    const address = await dialog(page).locator('[part~="address"]').boundingBox()
    expect(Math.abs(label!.y - address!.y), `${viewport.width} px`).toBeLessThan(8)
  }
  await page.evaluate(() => {
    ;(window as any).__wallet.hold.send = true
  })
  await dialog(page).getByRole('button', { name: /^Pay / }).click()
  await waitForStep(page, 'confirmInWallet')
  await page.waitForFunction(() => !!(window as any).__wallet.release.send)
  await check(page, 'confirm-in-wallet', '$24.50')
  await page.evaluate(() => {
    const wallet = (window as any).__wallet
    wallet.reject.send = true
    wallet.release.send()
  })
  await waitForStep(page, 'review')
  await expect(dialog(page).getByRole('alert')).toBeVisible()
  await check(page, 'declined', '$24.50')
  await page.evaluate(() => {
    ;(window as any).__wallet.reject.send = false
    ;(window as any).__wallet.hold.send = false
  })
  await dialog(page).getByRole('button', { name: /^Pay / }).click()
  await waitForStep(page, 'paid')
  await check(page, 'paid', '$24.50')
  await dialog(page).getByRole('button', { name: 'Done' }).click()
  await expect(payButton(page)).toHaveText('Paid')
  await check(page, 'button-paid')
})

test('manual and ended steps in every variant: who and how much, axe, 44 px controls', async ({
  page,
}) => {
  test.setTimeout(180_000) // each step checked four times: four one-variant tests' time
  const session = await createSession('24.50', 'USD')
  await openPage(page, session, { merchant })
  await payButton(page).click()
  await waitForStep(page, 'chooseWallet')
  await dialog(page).getByRole('button', { name: 'Pay from another wallet or an exchange' }).click()
  await waitForStep(page, 'manual')
  await expect(dialog(page).locator('[part~="qr"]')).toBeVisible()
  await check(page, 'manual', '$24.50')

  const noWallet = await page.context().newPage()
  await openPage(noWallet, await createSession('24.50', 'USD'), { merchant, wallet: false })
  await payButton(noWallet).click()
  await waitForStep(noWallet, 'chooseWallet')
  await check(noWallet, 'no-wallet-found', '$24.50')

  // The element cannot reach the chain: nothing was attempted, so nothing "failed".
  const offline = await page.context().newPage()
  await openPage(offline, await createSession('24.50', 'USD'), {
    merchant,
    rpc: 'http://127.0.0.1:9',
  })
  await payButton(offline).click()
  await waitForStep(offline, 'failed')
  await expect(
    dialog(offline).getByRole('heading', { name: 'Can’t reach the network' }),
  ).toBeVisible()
  await check(offline, 'unreachable', '$24.50')

  const unpaid = await createSession('24.50', 'USD')
  await advanceClock(31 * 60)
  await waitForStatus(unpaid, ['CANCELED'])
  const expired = await page.context().newPage()
  await openPage(expired, unpaid, { merchant })
  await expect(payButton(expired)).toHaveText('Payment expired', { timeout: 20_000 })
  await check(expired, 'button-expired')
  await payButton(expired).click()
  await waitForStep(expired, 'expired')
  await check(expired, 'expired', '$24.50')
})

test('a session that accepts one token skips the list of one', async ({ page }) => {
  const session = await createSession('12.50', 'EUR')
  await openPage(page, session, { merchant })
  await payButton(page).click()
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
  await waitForStep(page, 'review')
  await expect(dialog(page).locator('dd', { hasText: 'EURC' })).toBeVisible()
  // Nothing to change to.
  await expect(dialog(page).getByRole('button', { name: 'Change' })).toHaveCount(0)
  const list = await events(page)
  const steps = list.filter((e) => e.type === 'paysession-step-change').map((e) => e.detail.step)
  expect(steps).toEqual(['loading', 'chooseWallet', 'connecting', 'review'])
  expect(list.find((e) => e.type === 'paysession-token-selected')?.detail).toEqual({
    symbol: 'EURC',
  })
})

test('the network by its name and icon, never its raw id', async ({ page }) => {
  const session = await createSession('10.00', 'USD')
  await openPage(page, session)
  await payButton(page).click()
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
  await dialog(page).getByRole('button', { name: /USDC/ }).click()
  await waitForStep(page, 'review')
  const network = dialog(page).locator('dd', { hasText: 'Local test chain' })
  await expect(network).toBeVisible()
  await expect(network.locator('img')).toHaveAttribute('src', /^data:image\/svg\+xml,/)
  expect(await dialog(page).textContent()).not.toContain('LOCAL')
  // Every value ends on one right edge, the changeable token and the copyable address too.
  const rights = await dialog(page)
    .locator('dd')
    .evaluateAll((cells) =>
      cells.map((cell) => {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT)
        let right = 0
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const range = document.createRange()
          range.selectNodeContents(node)
          if (node.textContent?.trim()) right = Math.max(right, range.getBoundingClientRect().right)
        }
        for (const icon of cell.querySelectorAll('svg'))
          right = Math.max(right, icon.getBoundingClientRect().right)
        return right
      }),
    )
  expect(rights).toHaveLength(5)
  expect(Math.max(...rights) - Math.min(...rights)).toBeLessThan(2)
})

test('merchant name and logo: shown on every step; a logo that is not an image URL is not', async ({
  page,
}) => {
  const logo =
    'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"%3E%3Crect width="4" height="4" fill="%23b45309"/%3E%3C/svg%3E'
  const session = await createSession('10.00', 'USD')
  await openPage(page, session, { merchant, logo })
  await payButton(page).click()
  await waitForStep(page, 'chooseWallet')
  await expect(dialog(page)).toHaveAccessibleName(`${merchant} $10.00`)
  await expect(dialog(page).locator('[part~="logo"]')).toBeVisible()
  await page.evaluate(() =>
    document
      .querySelector('paysession-checkout')!
      .setAttribute('merchant-logo', 'javascript:alert(1)'),
  )
  await expect(dialog(page).locator('[part~="logo"]')).toHaveCount(0)
})

test('manual pay: every accepted token, a grouped address, a copy button, a way back', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.setViewportSize({ width: 390, height: 844 })
  const session = await createSession('10.00', 'USD')
  await openPage(page, session, { merchant })
  await payButton(page).click()
  await dialog(page).getByRole('button', { name: 'Pay from another wallet or an exchange' }).click()
  await waitForStep(page, 'manual')
  await expect(dialog(page).getByText('Send exactly 10.00 USDC on Local test chain')).toBeVisible()
  const usdt = dialog(page).getByRole('button', { name: 'USDT' })
  await usdt.click()
  await expect(usdt).toHaveAttribute('aria-pressed', 'true')
  await expect(dialog(page).getByText('Send exactly 10.00 USDT on Local test chain')).toBeVisible()
  // The wallet link and the QR now ask for USDT (its contract), for the same amount.
  await expect(dialog(page).getByRole('link', { name: 'Open in a wallet app' })).toHaveAttribute(
    'href',
    /^ethereum:0x6d741950129e74422fb11ff179C11710c8d2d7CB@31337\/transfer\?.*uint256=10000000$/,
  )

  // The address: exact text, in groups of four, on lines of (nearly) even length.
  const otw = await page.evaluate(
    () => (document.querySelector('paysession-checkout') as any).state.session.oneTimeWalletAddress,
  )
  const address = dialog(page).locator('[part~="address"]')
  await expect(address).toHaveText(otw)
  const lines = await address.evaluate((code) => {
    const rows = new Map<number, number>()
    for (const group of code.querySelectorAll('span')) {
      const top = Math.round(group.getBoundingClientRect().top)
      rows.set(top, (rows.get(top) ?? 0) + (group.textContent?.length ?? 0))
    }
    return [...rows.values()]
  })
  expect(Math.min(...lines)).toBeGreaterThanOrEqual(Math.max(...lines) - 8)
  await dialog(page).getByRole('button', { name: 'Copy address' }).click()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(otw)
  expect(await smallTapTargets(page)).toEqual([])

  await dialog(page).getByRole('button', { name: 'Pay with a wallet instead' }).click()
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
  await waitForStep(page, 'chooseToken')
})

test('a decline is neutral and, once the dialog is closed, gone on reopening', async ({ page }) => {
  const session = await createSession('10.00', 'USD')
  await openPage(page, session)
  await payButton(page).click()
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
  await dialog(page).getByRole('button', { name: /USDC/ }).click()
  await waitForStep(page, 'review')
  await page.evaluate(() => {
    ;(window as any).__wallet.reject.send = true
  })
  await dialog(page).getByRole('button', { name: /^Pay / }).click()
  const alert = dialog(page).getByRole('alert')
  await expect(alert).toHaveText('The request was declined in your wallet.')
  await expect(alert).toHaveAttribute('part', 'notice')
  await dialog(page).getByRole('button', { name: 'Close' }).click()
  await payButton(page).click()
  await waitForStep(page, 'review')
  await expect(dialog(page).getByRole('button', { name: /^Pay / })).toBeVisible()
  await expect(dialog(page).getByRole('alert')).toHaveCount(0)
})

test('after payment the page button is a quiet "Paid", not a call to action', async ({ page }) => {
  const session = await createSession('10.00', 'USD')
  await openPage(page, session)
  const accent = await payButton(page).evaluate((b) => getComputedStyle(b).backgroundColor)
  await payButton(page).click()
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
  await dialog(page).getByRole('button', { name: /USDC/ }).click()
  await dialog(page).getByRole('button', { name: /^Pay / }).click()
  await waitForStep(page, 'paid')
  await expect(dialog(page).getByText('You paid $10.00.')).toBeVisible()
  expect(await dialog(page).textContent()).not.toContain('close this window')
  await dialog(page).getByRole('button', { name: 'Done' }).click()
  await expect(payButton(page)).toHaveText('Paid')
  await expect(payButton(page)).toHaveAttribute('data-ended', 'paid')
  const quiet = await payButton(page).evaluate((b) => getComputedStyle(b).backgroundColor)
  expect(quiet).not.toBe(accent)
  expect(await payButton(page).evaluate((b) => getComputedStyle(b, '::before').content)).toContain(
    '✓',
  )
})

test('locale fallbacks: pt-PT reads Brazilian Portuguese, Traditional Chinese reads English', async () => {
  const { languageOf, loadCatalog } = await import('../src/i18n/catalogs.js')
  expect((await loadCatalog('pt-PT')).pay).toBe('Pagar {amount}')
  expect((await loadCatalog('zh-Hans-CN')).pay).toBe('支付 {amount}')
  expect((await loadCatalog('ES-mx')).pay).toBe('Pagar {amount}')
  for (const english of ['zh-TW', 'zh-Hant-HK', 'en-GB', 'sv-SE']) {
    expect(languageOf(english), english).toBe('en')
    expect((await loadCatalog(english)).chooseWallet).toBe('Choose a wallet')
  }
})
