// What the widget tells a customer about their money is exactly true: amounts at full precision,
// the whole receiving address.
import { expect, test } from '@playwright/test'
import {
  advanceClock,
  createSession,
  dialog,
  env,
  events,
  expectAxeClean,
  openPage,
  payButton,
  payOutside,
  payWithTestWallet,
  shot,
  waitForCheckout,
  waitForStatus,
  waitForStep,
} from './support.js'

const otwOf = (page: import('@playwright/test').Page) =>
  page.evaluate(
    () =>
      (document.querySelector('paysession-checkout') as any).state.session
        .oneTimeWalletAddress as string,
  )

test('amounts at the token precision are shown exactly: button, manual pay, QR', async ({
  page,
}) => {
  const session = await createSession('10.123456', 'USD')
  await openPage(page, session)
  await expect(payButton(page)).toHaveText('Pay $10.123456')
  await payButton(page).click()
  await waitForStep(page, 'chooseWallet')
  await dialog(page).getByRole('button', { name: 'Pay from another wallet or an exchange' }).click()
  await waitForStep(page, 'manual')
  await expect(
    dialog(page).getByText('Send exactly 10.123456 USDC on Local test chain to this address:'),
  ).toBeVisible()
  await expect(
    dialog(page).getByRole('img', { name: /QR code to pay 10.123456 USDC/ }),
  ).toBeVisible()
  await expect(dialog(page).getByRole('link', { name: 'Open in a wallet app' })).toHaveAttribute(
    'href',
    /&uint256=10123456$/,
  )
  // Part of it arrives (from a phone wallet): what came so far, to the last digit.
  await fetch(`${env.page}/__sandbox/pay?session=${session.paymentSessionId}&amount=3.000001`)
  await expect(dialog(page).getByText('Received so far: 3.000001 USDC')).toBeVisible({
    timeout: 20_000,
  })
})

test('amounts at the token precision are shown exactly: review, wallet, paid (de)', async ({
  page,
}) => {
  const session = await createSession('1234.000001', 'USD')
  await openPage(page, session, { locale: 'de' })
  await expect(payButton(page)).toHaveText('1.234,000001 $ bezahlen')
  await payButton(page).click()
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
  await waitForStep(page, 'chooseToken')
  await dialog(page).getByRole('button', { name: /USDC/ }).click()
  await waitForStep(page, 'review')
  // The sandbox network's name is words, so it is German too.
  await expect(dialog(page).locator('dd', { hasText: 'Lokales Testnetzwerk' })).toBeVisible()
  // The amount row, and the header's total above every step: both exact.
  await expect(dialog(page).getByText('1.234,000001 $', { exact: true })).toHaveCount(2)
  await expect(dialog(page).locator('dd strong')).toHaveText('1.234,000001 $')
  const pay = dialog(page).getByRole('button', { name: /bezahlen/ })
  await expect(pay).toHaveText('1.234,000001 USDC bezahlen')
  await pay.click()
  await waitForStep(page, 'paid')
  await expect(dialog(page).getByText('1.234,000001 $ bezahlt', { exact: false })).toBeVisible()
  await expect(dialog(page).getByText('1.234,000001 USDC', { exact: true })).toBeVisible()
  await waitForStatus(session, ['FUNDED'])
})

test('the review shows the whole receiving address, grouped for reading, with a copy button', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const session = await createSession('10.00', 'USD')
  await openPage(page, session)
  await payButton(page).click()
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
  await waitForStep(page, 'chooseToken')
  await dialog(page).getByRole('button', { name: /USDC/ }).click()
  await waitForStep(page, 'review')
  const otw = await otwOf(page)
  const address = dialog(page).locator('[part~="address"]')
  // 0x then ten groups of four: every character visible, nothing elided.
  const groups = [otw.slice(0, 2), ...otw.slice(2).match(/.{4}/g)!]
  await expect(address).toHaveText(groups.join(' '))
  await expect(address).not.toContainText('…')
  await expect(address).toHaveAttribute('title', otw)
  await dialog(page).getByRole('button', { name: 'Copy address' }).click()
  await expect(dialog(page).getByRole('button', { name: 'Copied' })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(otw)
  await shot(page, 'review-full-address')
  await expectAxeClean(page)
})

test('token expired, paid: the page learns it from the chain, never "expired"', async ({
  page,
}) => {
  const session = await createSession('10.00', 'USD')
  await openPage(page, session)
  await expect(payButton(page)).toHaveText('Pay $10.00')
  // The checkout has started and kept the session's facts (its one-time wallet, the amount):
  // what the page follows the chain by once the token is gone. (The button's own read keeps
  // none: a page that never started the checkout says "View payment", the next test.)
  await waitForCheckout(page)
  await payOutside(session)
  await waitForStatus(session, ['FUNDED'])
  await advanceClock(3700) // the session token's hour is over; the payment is not
  await page.reload()
  await expect(payButton(page)).toHaveText('Paid')
  await payButton(page).click()
  await waitForStep(page, 'paid')
  await expect(dialog(page).getByRole('heading', { name: 'Payment received' })).toBeVisible()
  await expect(dialog(page)).not.toContainText('expired')
  const steps = (await events(page)).filter((e) => e.type === 'paysession-step-change')
  expect(steps.map((e) => e.detail.step)).not.toContain('expired')
})

test('token expired, unpaid, no fresh token: "can no longer be followed here", not expired', async ({
  page,
}) => {
  const session = await createSession('10.00', 'USD')
  await openPage(page, session)
  await expect(payButton(page)).toHaveText('Pay $10.00')
  await advanceClock(3700)
  await page.reload()
  await expect(payButton(page)).toHaveText('View payment')
  await payButton(page).click()
  await waitForStep(page, 'untracked')
  await expect(
    dialog(page).getByRole('heading', { name: 'This payment can no longer be followed here' }),
  ).toBeVisible()
  await expect(dialog(page).getByText(/still reaches the merchant/)).toBeVisible()
  await expect(dialog(page).getByRole('alert')).toHaveCount(0)
  await expect(dialog(page)).not.toContainText('expired')
  // Nothing to try again without a way to a fresh token: only close.
  await expect(dialog(page).getByRole('button')).toHaveText(['×', 'Close'])
  await shot(page, 'untracked')
  await expectAxeClean(page)
})

test('a refused token, the page hands a fresh one: payable as usual', async ({ page }) => {
  const session = await createSession('10.00', 'USD')
  // (Here the funding window is shorter than the token's hour: a refused token stands in.)
  await openPage(page, session, { token: 'pst_refused', tokenProvider: true })
  await expect(payButton(page)).toHaveText('Pay $10.00')
  await payWithTestWallet(page)
  await waitForStatus(session, ['FUNDED'])
})
