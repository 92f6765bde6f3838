import { expect, test } from '@playwright/test'
import { qrPath } from '../src/qr/qrPath.js'
import {
  advanceClock,
  capture,
  createSession,
  dialog,
  events,
  expectAxeClean,
  openPage,
  payButton,
  payOutside,
  shot,
  waitForStatus,
  waitForStep,
} from './support.js'

test('with x402-url, the manual step shows the session’s x402 URL to copy', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const session = await createSession('12.50', 'EUR')
  const x402Url = `https://shop.example/?session=${session.paymentSessionId}`
  const { errors } = await openPage(page, session, {
    wallet: false,
    attributes: { 'x402-url': x402Url },
  })
  await payButton(page).click()
  await waitForStep(page, 'chooseWallet')
  await dialog(page).getByRole('button', { name: 'Pay from another wallet or an exchange' }).click()
  await waitForStep(page, 'manual')
  await expect(dialog(page).locator('[part~="x402-url"]')).toHaveText(x402Url)
  await dialog(page).getByRole('button', { name: 'Copy link' }).click()
  await expect(dialog(page).getByRole('button', { name: 'Copied' })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(x402Url)
  await expectAxeClean(page)
  expect(errors).toEqual([])
})

test('manual payment: address, copy, EIP-681 QR, then follows the session until paid', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const session = await createSession('12.50', 'EUR')
  const { errors } = await openPage(page, session, { wallet: false })
  await expect(payButton(page)).toHaveText('Pay €12.50')
  await payButton(page).click()
  await waitForStep(page, 'chooseWallet')
  await expect(dialog(page).getByText('No wallet was found in this browser.')).toBeVisible()
  await shot(page, 'no-wallet')
  await expectAxeClean(page)
  await dialog(page).getByRole('button', { name: 'Pay from another wallet or an exchange' }).click()
  await waitForStep(page, 'manual')
  const otw = await page.evaluate(
    () => (document.querySelector('paysession-checkout') as any).state.session.oneTimeWalletAddress,
  )
  await expect(dialog(page).getByText(otw)).toBeVisible()
  await expect(
    dialog(page).getByText('Send exactly 12.50 EURC on Local test chain to this address:'),
  ).toBeVisible()
  const qr = dialog(page).getByRole('img', { name: /QR code to pay 12.50 EURC/ })
  await expect(qr).toBeVisible()
  expect(await qr.locator('path').getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/)
  await dialog(page).getByRole('button', { name: 'Copy address' }).click()
  await expect(dialog(page).getByRole('button', { name: 'Copied' })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(otw)
  await shot(page, 'manual')
  await expectAxeClean(page)
  await payOutside(session)
  await waitForStep(page, 'paid')
  await expect(dialog(page).getByRole('heading', { name: 'Payment received' })).toBeVisible()
  const list = await events(page)
  expect(list.find((e) => e.type === 'paysession-paid')?.detail).toMatchObject({
    sessionId: session.paymentSessionId,
    amount: '12.50',
    tokenSymbol: 'EURC',
  })
  expect(list.every((e) => e.composed)).toBe(true)
  expect(errors).toEqual([])
})

test('the QR and the wallet link carry the EIP-681 transfer for this session', async ({ page }) => {
  const session = await createSession('12.50', 'EUR')
  await openPage(page, session, { wallet: false })
  await page.evaluate(() => (document.querySelector('paysession-checkout') as any).open())
  await waitForStep(page, 'chooseWallet')
  await dialog(page).getByRole('button', { name: 'Pay from another wallet or an exchange' }).click()
  await waitForStep(page, 'manual')
  const otw = await page.evaluate(
    () => (document.querySelector('paysession-checkout') as any).state.session.oneTimeWalletAddress,
  )
  // EURC on LOCAL (chain 31337), 12.50 with 6 decimals.
  const uri = `ethereum:0xc1AE7fC0DA49a9A45B3AA7BD4893F97CCe389F57@31337/transfer?address=${otw}&uint256=12500000`
  await expect(dialog(page).getByRole('link', { name: 'Open in a wallet app' })).toHaveAttribute(
    'href',
    uri,
  )
  const drawn = await dialog(page).locator('[part~="qr"] path').getAttribute('d')
  expect(drawn).toBe(qrPath(uri).d)
})

test('too little balance: the token is marked and not selectable', async ({ page }) => {
  const session = await createSession('20000.00', 'USD')
  await openPage(page, session)
  await payButton(page).click()
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
  await waitForStep(page, 'chooseToken')
  const usdc = dialog(page).getByRole('button', { name: /USDC/ })
  await expect(usdc).toBeDisabled()
  await expect(usdc).toContainText('Balance too low')
  await shot(page, 'insufficient')
  await expectAxeClean(page)
})

test('declined in the wallet: back to review with the sentence and a retry', async ({ page }) => {
  const session = await createSession('10.00', 'USD')
  await openPage(page, session)
  await payButton(page).click()
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
  await dialog(page).getByRole('button', { name: /USDT/ }).click()
  await waitForStep(page, 'review')
  await page.evaluate(() => {
    const wallet = (window as any).__wallet
    wallet.hold.send = true
  })
  await dialog(page).getByRole('button', { name: /^Pay / }).click()
  await waitForStep(page, 'confirmInWallet')
  await expect(dialog(page).getByText('Confirm the payment in your wallet').first()).toBeVisible()
  await shot(page, 'confirm-in-wallet')
  await expectAxeClean(page)
  // Not safe to close while the wallet prompt is open: Escape does nothing.
  await page.keyboard.press('Escape')
  await expect(dialog(page)).toBeVisible()
  await expect(dialog(page).getByRole('button', { name: 'Close' })).toBeDisabled()
  await page.evaluate(() => {
    const wallet = (window as any).__wallet
    wallet.reject.send = true
    wallet.release.send()
  })
  await waitForStep(page, 'review')
  await expect(dialog(page).getByRole('alert')).toHaveText(
    'The request was declined in your wallet.',
  )
  await shot(page, 'declined')
  expect((await events(page)).find((e) => e.type === 'paysession-error')?.detail).toMatchObject({
    code: 'USER_REJECTED',
    retryable: true,
  })
  await page.evaluate(() => {
    ;(window as any).__wallet.reject.send = false
    ;(window as any).__wallet.hold.send = false
  })
  await dialog(page).getByRole('button', { name: /^Pay / }).click()
  await waitForStep(page, 'paid')
})

test('after a reload mid-payment it resumes, never a fresh pay button', async ({ page }) => {
  const session = await createSession('10.00', 'USD')
  await openPage(page, session)
  await payButton(page).click()
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
  await dialog(page).getByRole('button', { name: /USDC/ }).click()
  await page.evaluate(() => {
    ;(window as any).__wallet.hold.send = true
  })
  await dialog(page).getByRole('button', { name: /^Pay / }).click()
  await waitForStep(page, 'confirmInWallet')
  // Reload once the wallet holds the prompt: the step shows a moment before the payment is
  // recorded, and a reload before any prompt rightly offers a fresh pay button.
  await page.waitForFunction(() => !!(window as any).__wallet.release.send)
  await page.reload()
  await expect(payButton(page)).toHaveText('Payment in progress')
  await shot(page, 'button-in-progress')
  // Now the transfer lands (as if the wallet had sent it): the button follows to paid.
  await payOutside(session)
  await expect(payButton(page)).toHaveText('Paid', { timeout: 30_000 })
  await page.reload()
  await expect(payButton(page)).toHaveText('Paid')
})

test('before the dialog code runs, the button reads the session and the payment this browser recorded', async ({
  page,
}) => {
  const session = await createSession('10.00', 'USD')
  const id = session.paymentSessionId
  // The dialog's code never arrives: what the button says comes from the first file alone.
  await page.route(/checkout\.dialog-[^/]*\.js$/, (route) => route.abort())
  await openPage(page, session)
  await expect(payButton(page)).toHaveText('Pay $10.00')
  const ready = (await events(page)).find((e) => e.type === 'paysession-ready')
  expect(ready?.detail).toMatchObject({ sessionId: id, amount: '10.00', currency: 'USD' })
  expect(
    await page.evaluate(() => (document.querySelector('paysession-checkout') as any).state),
  ).toBeUndefined()
  // A payment this browser started (core's "never twice" record, written before a prompt).
  await page.evaluate((sessionId) => {
    localStorage.setItem(
      `paysession:payment:${sessionId}`,
      JSON.stringify({ version: 1, sessionId, state: 'prompting', createdAt: Date.now() }),
    )
  }, id)
  await page.reload()
  await expect(payButton(page)).toHaveText('Payment in progress')
  await page.evaluate((sessionId) => localStorage.removeItem(`paysession:payment:${sessionId}`), id)
  await page.reload()
  await expect(payButton(page)).toHaveText('Pay $10.00')
})

test('a language that cannot load: the button says it in English, and opening asks again', async ({
  page,
}) => {
  const session = await createSession('10.00', 'USD')
  // Neither German's file nor English's arrives.
  const words = /\/(de|en-[^/]*)\.js$/
  await page.route(words, (route) => route.abort())
  await openPage(page, session, { locale: 'de' })
  // English's button words are in the first file; the amount is still German-formatted.
  await expect(payButton(page)).toHaveText('Pay 10,00 $')
  await page.unroute(words)
  await payButton(page).click()
  await expect(dialog(page).getByRole('heading', { name: 'Wallet wählen' })).toBeVisible()
  await expect(payButton(page)).toHaveText('10,00 $ bezahlen')
})

test('completed after the merchant captures', async ({ page }) => {
  const session = await createSession('10.00', 'USD')
  await payOutside(session)
  await waitForStatus(session, ['FUNDED'])
  await capture(session)
  await waitForStatus(session, ['SUCCEEDED'])
  await openPage(page, session)
  await expect(payButton(page)).toHaveText('Paid')
  await payButton(page).click()
  await waitForStep(page, 'completed')
  await expect(dialog(page).getByRole('heading', { name: 'Payment received' })).toBeVisible()
  await expectAxeClean(page)
})

test('expired: a clear state and no way to pay', async ({ page }) => {
  const session = await createSession('10.00', 'USD')
  await advanceClock(31 * 60)
  await waitForStatus(session, ['CANCELED'])
  await openPage(page, session)
  await expect(payButton(page)).toHaveText('Payment expired', { timeout: 20_000 })
  await payButton(page).click()
  await waitForStep(page, 'expired')
  await expect(dialog(page).getByRole('heading', { name: 'Payment expired' })).toBeVisible()
  await expect(dialog(page).getByRole('alert')).toHaveText('This payment has expired.')
  await shot(page, 'expired')
  await expectAxeClean(page)
  await page.keyboard.press('Escape')
  await expect(dialog(page)).toBeHidden()
})

test('unavailable: a bad token shows the sentence and the error event, not "failed"', async ({
  page,
}) => {
  const session = await createSession('10.00', 'USD')
  await openPage(page, session, { token: 'pst_invalid' })
  await expect(payButton(page)).toHaveText('Payment unavailable')
  await payButton(page).click()
  await waitForStep(page, 'failed')
  // Nothing was attempted, so nothing "failed": the payment is unavailable, and why.
  await expect(dialog(page).getByRole('heading', { name: 'Payment unavailable' })).toBeVisible()
  await expect(dialog(page).getByRole('alert')).toBeVisible()
  await shot(page, 'failed')
  await expectAxeClean(page)
  const error = (await events(page)).find((e) => e.type === 'paysession-error')
  expect(error?.detail.code).toMatch(/UNAUTHORIZED|FORBIDDEN/)
})

test('loading: the button waits for the session, then shows its amount', async ({ page }) => {
  const session = await createSession('10.00', 'USD')
  let release!: () => void
  const gate = new Promise<void>((r) => (release = r))
  await page.route(`**/payment-sessions/${session.paymentSessionId}`, async (route) => {
    await gate
    await route.continue()
  })
  await openPage(page, session)
  await expect(payButton(page)).toHaveText('Loading payment…')
  await expect(payButton(page)).toHaveAttribute('aria-busy', 'true')
  await shot(page, 'button-loading')
  release()
  await expect(payButton(page)).toHaveText('Pay $10.00')
})

test('the session’s request leaves before the code that reads it arrives', async ({ page }) => {
  const session = await createSession('10.00', 'USD')
  let release!: () => void
  const gate = new Promise<void>((r) => (release = r))
  await page.route(/preview\.read-[^/]*\.js$/, async (route) => {
    await gate
    await route.continue()
  })
  const reads: string[] = []
  page.on('request', (request) => {
    if (request.url().endsWith(`/payment-sessions/${session.paymentSessionId}`))
      reads.push(request.method())
  })
  await openPage(page, session)
  // The reader's chunk is held: the request is on its way all the same, and only one.
  await expect.poll(() => reads).toEqual(['GET'])
  await expect(payButton(page)).toHaveText('Loading payment…')
  release()
  await expect(payButton(page)).toHaveText('Pay $10.00')
})

test('the dialog starts from the button’s read: the wallets show while every later read waits', async ({
  page,
}) => {
  const session = await createSession('10.00', 'USD')
  let reads = 0
  await page.route(`**/payment-sessions/${session.paymentSessionId}`, async (route) => {
    // The button's read goes through; the rest wait past the test's end.
    if (++reads > 1) await new Promise(() => {})
    await route.continue()
  })
  // The handed read counts while it is as fresh as a poll (polling.interval): a loaded machine
  // may start the dialog seconds after the button's read.
  await openPage(page, session, { polling: { interval: 30_000 } })
  await expect(payButton(page)).toHaveText('Pay $10.00')
  await payButton(page).click()
  await waitForStep(page, 'chooseWallet')
  await expect(dialog(page).getByRole('button', { name: 'Test Wallet' })).toBeVisible()
})
