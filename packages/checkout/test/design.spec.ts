import { expect, type Page, test } from '@playwright/test'
import { catalog as arabic } from '../src/i18n/ar.js'
import { catalog as hebrew } from '../src/i18n/he.js'
import { catalog as japanese } from '../src/i18n/ja.js'
import {
  advanceClock,
  createSession,
  dialog,
  env,
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

test('locale fallbacks: pt-PT reads Brazilian Portuguese, es-AR Latin American Spanish', async () => {
  const { languageOf } = await import('../src/i18n/catalogs.js')
  const { loadCatalog } = await import('../src/loads.js')
  expect((await loadCatalog('pt-PT')).pay).toBe('Pagar {amount}')
  expect((await loadCatalog('zh-Hans-CN')).pay).toBe('支付 {amount}')
  expect((await loadCatalog('es-AR')).amount).toBe('Monto')
  expect((await loadCatalog('es-ES')).amount).toBe('Importe')
  expect((await loadCatalog('zh-Hant-HK')).paid).toBe('已付款')
  for (const english of ['en-GB', 'bn-BD', 'x-unknown']) {
    expect(languageOf(english), english).toBe('en')
    expect((await loadCatalog(english)).chooseWallet).toBe('Choose a wallet')
  }
})

test("the language: the element's locale or lang, an ancestor's lang, then the browser's", async ({
  page,
}) => {
  await page.goto(`${env.page}/test/pages/index.html`)
  const locale = (setUp: string) =>
    page.evaluate((setUp) => {
      document.body.innerHTML = setUp
      return (document.querySelector('paysession-checkout') as any).resolvedLocale
    }, setUp)
  expect(await locale('<paysession-checkout lang="ar"></paysession-checkout>')).toBe('ar')
  expect(
    await locale('<section lang="es-AR"><paysession-checkout></paysession-checkout></section>'),
  ).toBe('es-AR')
  expect(
    await locale('<div lang="he"><paysession-checkout locale="tr"></paysession-checkout></div>'),
  ).toBe('tr')
  // A language without a file gives way to the next one asked: the page's, then the browser's.
  expect(await locale('<paysession-checkout lang="bn"></paysession-checkout>')).toBe('en')
  await page.evaluate(() => document.documentElement.removeAttribute('lang'))
  await page.evaluate(() =>
    Object.defineProperty(navigator, 'languages', { value: ['gsw-CH', 'uk-UA', 'en'] }),
  )
  expect(await locale('<paysession-checkout></paysession-checkout>')).toBe('uk-UA')
  const rendered = await page.evaluate(async () => {
    document.body.innerHTML = '<paysession-checkout lang="fa"></paysession-checkout>'
    const element = document.querySelector('paysession-checkout') as any
    await element.updateComplete
    const button = element.shadowRoot.querySelector('[part~="button"]')
    return { dir: button.dir, direction: getComputedStyle(button).direction }
  })
  expect(rendered).toEqual({ dir: 'rtl', direction: 'rtl' })
})

// ---- Right to left -----------------------------------------------------------------------------
// Every step in Arabic and Hebrew at 1280 and 390 px, light and dark, switched in place on one
// page per step (no new page or browser per picture): the dialog mirrored, and every address,
// hash and amount with its symbol read left to right. Axe and the 44 px targets in Arabic and in
// Japanese (CJK). `npm run screenshots` writes docs/rtl/<step>-<language>-<variant>.png. Pass and
// fail read positions and directions, never glyphs: a machine without Arabic or CJK fonts (tofu)
// still checks the same thing.

const strings = { ar: arabic, he: hebrew, ja: japanese }

/** Shows the element in `language` and waits until its words are in. */
async function speak(page: Page, language: keyof typeof strings) {
  await page.evaluate((language) => {
    document.querySelector('paysession-checkout')!.setAttribute('locale', language)
  }, language)
  await page.waitForFunction(
    (close) => (document.querySelector('paysession-checkout') as any)?._catalog?.close === close,
    strings[language].close,
  )
}

/**
 * Every address, hash and amount of the element whose characters do not follow each other left
 * to right on screen (per character: Range.getClientRects), and how many were read. With `probe`,
 * an amount without isolation is added first: the check must find it reversed.
 */
const reversedValues = (page: Page, probe = false) =>
  page.evaluate((probe) => {
    const root = document.querySelector('paysession-checkout')!.shadowRoot!
    const scope = root.querySelector('dialog[open]') ?? root
    if (probe) {
      const p = document.createElement('p')
      p.dataset.probe = ''
      p.dir = 'rtl'
      p.textContent = 'ادفع 24.50 USDC'
      scope.append(p)
    }
    const marks = /[\u200e\u200f\u2066-\u2069\s]/
    const value =
      /(?:US\$|\$)?\d[\d.,]*\d(?:\s(?:USDC|USDT|EURC|US\$|\$|€))?|0x[0-9a-fA-F]+(?:…[0-9a-fA-F]+)?/g
    const boxes = (node: Text, from: number, to: number) => {
      const range = document.createRange()
      const found: DOMRect[] = []
      for (let i = from; i < to; i++) {
        if (marks.test(node.data[i]!)) continue
        range.setStart(node, i)
        range.setEnd(node, i + 1)
        const box = range.getBoundingClientRect()
        if (box.width) found.push(box)
      }
      return found
    }
    const inOrder = (rects: DOMRect[]) =>
      rects.every((r, i) => {
        const last = rects[i - 1]
        if (!last) return true
        return Math.abs(r.top - last.top) < r.height / 2 ? r.left > last.left : r.top > last.top
      })
    const reversed: string[] = []
    let read = 0
    // An address or a hash: the whole element (its groups are elements of their own).
    for (const code of scope.querySelectorAll('code')) {
      const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT)
      const rects: DOMRect[] = []
      for (let node = walker.nextNode() as Text; node; node = walker.nextNode() as Text)
        rects.push(...boxes(node, 0, node.length))
      read++
      if (!inOrder(rects)) reversed.push(code.textContent!)
    }
    // An amount with its symbol, anywhere in a text.
    const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode() as Text; node; node = walker.nextNode() as Text) {
      if (node.parentElement?.closest('code, .sr-only')) continue
      for (const match of node.data.matchAll(value)) {
        const rects = boxes(node, match.index, match.index + match[0].length)
        if (rects.length < 2) continue
        read++
        if (!inOrder(rects)) reversed.push(match[0])
      }
    }
    scope.querySelector('[data-probe]')?.remove()
    return { reversed, read }
  }, probe)

/** One step: in ar and he, every variant: mirrored, values left to right; axe and 44 px in ar and ja. */
async function checkRtl(page: Page, step: string, values = true) {
  for (const language of ['ar', 'he'] as const) {
    await speak(page, language)
    for (const variant of variants) {
      await page.setViewportSize(variant.viewport)
      await page.emulateMedia({ colorScheme: variant.scheme })
      const directions = await page.evaluate(() => {
        const root = document.querySelector('paysession-checkout')!.shadowRoot!
        return [...root.querySelectorAll<HTMLElement>('[part~="button"], dialog[open]')].map(
          (element) => getComputedStyle(element).direction,
        )
      })
      expect(directions.length, step).toBeGreaterThan(0)
      expect(new Set(directions), `${step} ${language}`).toEqual(new Set(['rtl']))
      const { reversed, read } = await reversedValues(page)
      expect(reversed, `${step} ${language} ${variant.name}`).toEqual([])
      if (values) expect(read, `${step}: values read`).toBeGreaterThan(0)
      expect(await smallTapTargets(page), `${step} ${language} ${variant.name}`).toEqual([])
      if (process.env.SCREENSHOTS)
        await page.screenshot({ path: `docs/rtl/${step}-${language}-${variant.name}.png` })
    }
  }
  await page.setViewportSize(variants[2].viewport)
  await page.emulateMedia({ colorScheme: 'light' })
  await expectAxeClean(page)
  await speak(page, 'ja')
  await expectAxeClean(page)
  expect(await smallTapTargets(page), `${step} ja`).toEqual([])
  await speak(page, 'ar')
}

test('right to left: every wallet step in Arabic and Hebrew, mirrored, values left to right', async ({
  page,
}) => {
  test.setTimeout(240_000)
  const session = await createSession('1234.50', 'USD')
  await openPage(page, session, { merchant, locale: 'ar' })
  await expect(payButton(page)).toContainText('1,234.50')
  // The check finds an amount that is not isolated: it can fail.
  expect((await reversedValues(page, true)).reversed).toEqual(['24.50 USDC'])
  await checkRtl(page, 'button')
  await payButton(page).click()
  await waitForStep(page, 'chooseWallet')
  await checkRtl(page, 'choose-wallet')
  await dialog(page).getByRole('button', { name: arabic.payManually }).click()
  await waitForStep(page, 'manual')
  await expect(dialog(page).locator('[part~="qr"]')).toBeVisible()
  await checkRtl(page, 'manual')
  await dialog(page).getByRole('button', { name: arabic.payWithWallet }).click()
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
  await waitForStep(page, 'chooseToken')
  await checkRtl(page, 'choose-token')
  await dialog(page).getByRole('button', { name: /USDC/ }).click()
  await waitForStep(page, 'review')
  await checkRtl(page, 'review')
  // Mirrored: the close button at the left, the labels at the right, the values at the left.
  const close = await dialog(page).locator('[part~="close"]').boundingBox()
  const title = await dialog(page).locator('[part~="title"]').boundingBox()
  expect(close!.x).toBeLessThan(title!.x)
  const label = await dialog(page).locator('dt').first().boundingBox()
  const amount = await dialog(page).locator('dd').first().boundingBox()
  expect(label!.x).toBeGreaterThan(amount!.x)
  // The keyboard: Tab walks the dialog in order and wraps, Escape closes.
  const order = await page.evaluate(() => {
    const root = document.querySelector('paysession-checkout')!.shadowRoot!
    return [...root.querySelectorAll('dialog button:not([disabled])')].length
  })
  const seen = new Set<string>()
  for (let i = 0; i < order + 1; i++) {
    await page.keyboard.press('Tab')
    seen.add(
      await page.evaluate(
        () =>
          document.querySelector('paysession-checkout')!.shadowRoot!.activeElement?.outerHTML ?? '',
      ),
    )
  }
  expect(seen.size).toBe(order)
  await page.evaluate(() => {
    ;(window as any).__wallet.hold.send = true
  })
  await dialog(page).locator('[part~="primary"]').click()
  await waitForStep(page, 'confirmInWallet')
  await page.waitForFunction(() => !!(window as any).__wallet.release.send)
  await checkRtl(page, 'confirm-in-wallet')
  await page.evaluate(() => {
    const wallet = (window as any).__wallet
    wallet.reject.send = true
    wallet.release.send()
  })
  await waitForStep(page, 'review')
  await expect(dialog(page).getByRole('alert')).toBeVisible()
  await checkRtl(page, 'declined')
  await page.evaluate(() => {
    ;(window as any).__wallet.reject.send = false
    ;(window as any).__wallet.hold.send = false
  })
  await dialog(page).locator('[part~="primary"]').click()
  await waitForStep(page, 'paid')
  await checkRtl(page, 'paid')
  await dialog(page).locator('[part~="primary"]').click()
  await expect(payButton(page)).toHaveText(arabic.paid)
  await checkRtl(page, 'button-paid', false)
  await page.keyboard.press('Escape')
})

test('right to left: the ended steps in Arabic and Hebrew', async ({ page }) => {
  test.setTimeout(180_000)
  await openPage(page, await createSession('1234.50', 'USD'), {
    merchant,
    wallet: false,
    locale: 'ar',
  })
  await payButton(page).click()
  await waitForStep(page, 'chooseWallet')
  await checkRtl(page, 'no-wallet-found')

  const offline = await page.context().newPage()
  await openPage(offline, await createSession('1234.50', 'USD'), {
    merchant,
    locale: 'ar',
    rpc: 'http://127.0.0.1:9',
  })
  await payButton(offline).click()
  await waitForStep(offline, 'failed')
  await checkRtl(offline, 'unreachable')

  const unpaid = await createSession('1234.50', 'USD')
  await advanceClock(31 * 60)
  await waitForStatus(unpaid, ['CANCELED'])
  const expired = await page.context().newPage()
  await openPage(expired, unpaid, { merchant, locale: 'ar' })
  await expect(payButton(expired)).toHaveText(arabic.expiredButton, { timeout: 20_000 })
  await checkRtl(expired, 'button-expired', false)
  await payButton(expired).click()
  await waitForStep(expired, 'expired')
  await checkRtl(expired, 'expired')
})
