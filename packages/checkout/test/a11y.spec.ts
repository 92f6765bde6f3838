import { expect, type Page, test } from '@playwright/test'
import { languageTags } from '../scripts/languages.mjs'
import {
  createSession,
  dialog,
  events,
  expectAxeClean,
  openPage,
  payButton,
  referenceShot,
  shot,
  waitForStep,
} from './support.js'

const focusInDialog = (page: Page) =>
  page.evaluate(() => {
    const root = document.querySelector('paysession-checkout')!.shadowRoot!
    return Boolean(root.activeElement && root.querySelector('dialog')!.contains(root.activeElement))
  })

test('keyboard only: the whole payment, focus trapped, restored on close', async ({ page }) => {
  const session = await createSession('10.00', 'USD')
  await openPage(page, session)
  await expect(payButton(page)).toHaveText('Pay $10.00')
  await page.keyboard.press('Tab')
  await expect(payButton(page)).toBeFocused()
  await page.keyboard.press('Enter')
  await waitForStep(page, 'chooseWallet')
  await expect(dialog(page).getByRole('button', { name: 'Test Wallet' })).toBeFocused()
  // Focus stays in the dialog however far one tabs, both ways.
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab')
    expect(await focusInDialog(page)).toBe(true)
  }
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Shift+Tab')
    expect(await focusInDialog(page)).toBe(true)
  }
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).focus()
  await page.keyboard.press('Enter')
  await waitForStep(page, 'chooseToken')
  await expect(dialog(page).getByRole('button', { name: /USDC/ })).toBeFocused()
  await page.keyboard.press('Enter')
  await waitForStep(page, 'review')
  await expect(dialog(page).getByRole('button', { name: /^Pay / })).toBeFocused()
  await page.keyboard.press('Enter')
  await waitForStep(page, 'paid')
  await expect(dialog(page).getByRole('button', { name: 'Done' })).toBeFocused()
  expect(await page.getByRole('status').textContent()).toContain('Payment received')
  await page.keyboard.press('Escape')
  await expect(dialog(page)).toBeHidden()
  await expect(payButton(page)).toBeFocused()
  const types = (await events(page)).map((e) => e.type)
  expect(types).toContain('paysession-close')
})

for (const mode of ['attribute', 'media'] as const)
  test(`dark theme through the ${mode === 'attribute' ? 'theme attribute' : 'prefers-color-scheme'}`, async ({
    page,
  }) => {
    if (mode === 'media') await page.emulateMedia({ colorScheme: 'dark' })
    const session = await createSession('10.00', 'USD')
    await openPage(page, session, mode === 'attribute' ? { theme: 'dark' } : {})
    await payButton(page).click()
    await waitForStep(page, 'chooseWallet')
    const background = await dialog(page).evaluate((d) => getComputedStyle(d).backgroundColor)
    expect(background).toBe('rgb(23, 24, 28)')
    await shot(page, `dark-${mode}`)
    await expectAxeClean(page)
  })

test('theme="light" wins over a dark system preference; custom properties and ::part apply', async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'dark' })
  const session = await createSession('10.00', 'USD')
  await openPage(page, session, { theme: 'light' })
  await expect(payButton(page)).toHaveText('Pay $10.00')
  expect(await payButton(page).evaluate((b) => getComputedStyle(b).backgroundColor)).toBe(
    'rgb(67, 56, 202)',
  )
  await page.evaluate(() => {
    const element = document.querySelector('paysession-checkout') as HTMLElement
    element.style.setProperty('--paysession-accent', 'rgb(0, 128, 0)')
  })
  expect(await payButton(page).evaluate((b) => getComputedStyle(b).backgroundColor)).toBe(
    'rgb(0, 128, 0)',
  )
  // Page styles do not leak in: a global button rule does not reach the shadow button.
  await page.evaluate(() => {
    const sheet = new CSSStyleSheet()
    sheet.replaceSync(
      'button { font-size: 40px !important } paysession-checkout::part(button) { border-radius: 0 }',
    )
    document.adoptedStyleSheets = [sheet]
  })
  expect(await payButton(page).evaluate((b) => getComputedStyle(b).fontSize)).toBe('16px')
  expect(await payButton(page).evaluate((b) => getComputedStyle(b).borderRadius)).toBe('0px')
})

// Every language, switched in place on one page: the words come from its own catalog (a lazy
// chunk, English's too), amounts from Intl with Latin digits, left to right inside a right-to-left
// language. German and French are spelled out; the others are checked against their catalogs.
test('every language: its catalog, Intl amounts, axe in each script', async ({ page }) => {
  test.setTimeout(120_000)
  const session = await createSession('1234.50', 'EUR')
  await openPage(page, session, { locale: 'de', merchant: 'Harbor & Pine' })
  await payButton(page).click()
  await expect(dialog(page).getByRole('heading', { name: 'Wallet wählen' })).toBeVisible()
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
  // EUR sessions accept EURC only: no list of one to choose from.
  await waitForStep(page, 'review')
  for (const locale of languageTags() as string[]) {
    const { catalog } = await import(`../src/i18n/${locale}.ts`)
    await page.evaluate(
      (locale) => document.querySelector('paysession-checkout')!.setAttribute('locale', locale),
      locale,
    )
    await page.waitForFunction(
      (close) => (document.querySelector('paysession-checkout') as any)._catalog?.close === close,
      catalog.close,
    )
    // The script-tag build's chunk is the file's catalog, every string in its place.
    expect(
      await page.evaluate(() => (document.querySelector('paysession-checkout') as any)._catalog),
      locale,
    ).toEqual(catalog)
    const latin = new Intl.Locale(locale, { numberingSystem: 'latn' }).toString()
    let amount = new Intl.NumberFormat(latin, { style: 'currency', currency: 'EUR' }).format(1234.5)
    if (['ar', 'fa', 'he'].includes(locale))
      amount = `\u2066${amount.replace(/[\u200e\u200f]/g, '')}\u2069`
    const pay = catalog.pay.replace('{amount}', amount)
    if (locale === 'de') expect(pay).toBe(`${amount} bezahlen`)
    if (locale === 'fr') expect(pay).toBe(`Payer ${amount}`)
    await expect(payButton(page), locale).toHaveText(pay)
    await expect(dialog(page).getByRole('heading', { name: catalog.review })).toBeVisible()
    await expect(dialog(page).locator('[part~="total"]')).toHaveText(amount)
    await expect(dialog(page).locator('dd').getByText(amount)).toBeVisible()
    await expect(dialog(page)).toHaveAttribute('lang', locale)
    await referenceShot(page, `review-${locale}`)
    // Axe once per script and direction: the structure is the same in every language.
    if (['ar', 'he', 'hi', 'ja', 'th', 'zh-TW'].includes(locale)) await expectAxeClean(page)
  }
})

test('loading the element twice warns and never throws', async ({ page }) => {
  const session = await createSession('10.00', 'USD')
  const warnings: string[] = []
  page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()))
  const { errors } = await openPage(page, session)
  await expect(payButton(page)).toHaveText('Pay $10.00')
  await page.evaluate(() => import('/dist/cdn/current/paysession-checkout.js?again' as string))
  await expect.poll(() => warnings.join()).toContain('already defined')
  expect(errors).toEqual([])
})
