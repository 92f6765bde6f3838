import { expect, test } from '@playwright/test'
import {
  createSession,
  dialog,
  events,
  openPage,
  payButton,
  payOutside,
  transfersTo,
  waitForStatus,
  waitForStep,
} from './support.js'

// What the merchant page pins: the service must be https (plain http only on this machine), and
// the session must ask for the amount and currency of the order on the page.

test('a session for another amount is refused: nothing offered, a typed error, no transfer', async ({
  page,
}) => {
  const session = await createSession('25.00', 'USD')
  await openPage(page, session, {
    attributes: { 'expected-amount': '10.00', 'expected-currency': 'USD' },
  })
  await expect(payButton(page)).toHaveText('Payment unavailable')
  await payButton(page).click()
  await waitForStep(page, 'failed')
  await expect(dialog(page).getByRole('alert')).toHaveText(
    'This payment does not match your order. Please contact the merchant.',
  )
  await expect(dialog(page).getByRole('button', { name: 'Try again' })).toHaveCount(0)
  await expect(dialog(page).getByRole('button', { name: /another wallet/ })).toHaveCount(0)
  const errors = (await events(page)).filter((e) => e.type === 'paysession-error')
  expect(errors.map((e) => e.detail)).toContainEqual({
    code: 'SESSION_MISMATCH',
    message: expect.stringMatching(/does not match/),
    details: 'session 25.00 USD, expected 10.00 USD',
    retryable: false,
  })
  expect(await transfersTo(session)).toBe(0)
})

test('a session already paid for another order: never shown paid, no paid event, SESSION_MISMATCH', async ({
  page,
}) => {
  const session = await createSession('25.00', 'USD')
  await payOutside(session)
  await waitForStatus(session, ['FUNDED'])
  // Every text the button shows, from the first paint on.
  await page.addInitScript(() => {
    const seen: string[] = []
    ;(window as any).__buttonTexts = seen
    const read = () => {
      const button = document
        .querySelector('paysession-checkout')
        ?.shadowRoot?.querySelector('[part~="button"]')
      const text = button?.textContent?.trim()
      if (text && seen.at(-1) !== text) seen.push(text)
      requestAnimationFrame(read)
    }
    requestAnimationFrame(read)
  })
  await openPage(page, session, {
    attributes: { 'expected-amount': '10.00', 'expected-currency': 'USD' },
  })
  await expect(payButton(page)).toHaveText('Payment unavailable')
  // The dialog's code loads when the page is idle; its checkout says the same.
  await waitForStep(page, 'failed')
  await payButton(page).click()
  await expect(dialog(page).getByRole('alert')).toHaveText(
    'This payment does not match your order. Please contact the merchant.',
  )
  const seen: string[] = await page.evaluate(() => (window as any).__buttonTexts)
  expect(seen.length).toBeGreaterThan(0)
  expect(seen.filter((text) => /paid/i.test(text))).toEqual([])
  const fired = await events(page)
  expect(fired.filter((e) => e.type === 'paysession-paid')).toEqual([])
  expect(fired.filter((e) => e.type === 'paysession-ready')).toEqual([])
  expect(
    fired.filter((e) => e.type === 'paysession-step-change').map((e) => e.detail.step),
  ).not.toContain('paid')
  expect(fired.filter((e) => e.type === 'paysession-error').map((e) => e.detail.code)).toContain(
    'SESSION_MISMATCH',
  )
})

test('another currency, set as a property, in German', async ({ page }) => {
  const session = await createSession('25.00', 'USD')
  await openPage(page, session, { locale: 'de' })
  await page.evaluate(() => {
    const element = document.querySelector('paysession-checkout') as any
    element.expectedAmount = '25'
    element.expectedCurrency = 'EUR'
  })
  await expect(payButton(page)).toHaveText('Zahlung nicht verfügbar')
  await payButton(page).click()
  await waitForStep(page, 'failed')
  await expect(dialog(page).getByRole('alert')).toContainText('passt nicht zu Ihrer Bestellung')
})

test('"25" is the amount "25.00": the checkout offers the payment', async ({ page }) => {
  const session = await createSession('25.00', 'USD')
  await openPage(page, session, {
    attributes: { 'expected-amount': '25', 'expected-currency': 'usd' },
  })
  await expect(payButton(page)).toHaveText('Pay $25.00')
  await payButton(page).click()
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
  await waitForStep(page, 'chooseToken')
})

test('api-base over plain http to another host: refused before any request, in French', async ({
  page,
}) => {
  const session = await createSession('10.00', 'USD')
  const requested: string[] = []
  page.on('request', (request) => requested.push(request.url()))
  await openPage(page, session, {
    locale: 'fr',
    attributes: { 'api-base': 'http://api.example.test' },
  })
  await expect(payButton(page)).toHaveText('Paiement indisponible')
  await payButton(page).click()
  await waitForStep(page, 'failed')
  await expect(dialog(page).getByRole('alert')).toContainText('pas configuré de façon sécurisée')
  const errors = (await events(page)).filter((e) => e.type === 'paysession-error')
  expect(errors.map((e) => e.detail.code)).toContain('INSECURE_API_BASE')
  expect(errors.every((e) => e.detail.retryable === false)).toBe(true)
  expect(requested.filter((url) => url.startsWith('http://api.example.test'))).toEqual([])
})
