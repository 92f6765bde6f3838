import { devices, expect, test } from '@playwright/test'
import { walletLinks } from '../src/components/checkout/checkout.manual.js'
import { qrPath } from '../src/qr/qrPath.js'
import { createSession, dialog, expectAxeClean, openPage, shot, waitForStep } from './support.js'

// No wallet in the browser: a phone gets links that open this checkout in a wallet app's own
// browser, a desktop gets a QR code that opens it on the phone. The manual payment stays offered.

test('desktop without a wallet: a QR code opens this checkout on the phone', async ({ page }) => {
  const session = await createSession('10.00', 'USD')
  await openPage(page, session, { wallet: false })
  await page.evaluate(() => (document.querySelector('paysession-checkout') as any).open())
  await waitForStep(page, 'chooseWallet')
  const qr = dialog(page).getByRole('img', {
    name: 'QR code that opens this checkout on your phone',
  })
  await expect(qr).toBeVisible()
  expect(await qr.locator('path').getAttribute('d')).toBe(qrPath(page.url()).d)
  await expect(
    dialog(page).getByRole('button', { name: 'Pay from another wallet or an exchange' }),
  ).toBeVisible()
  await expect(dialog(page).getByRole('link', { name: 'MetaMask' })).toHaveCount(0)
  await shot(page, 'no-wallet-desktop')
  await expectAxeClean(page)
})

test.describe('on a phone', () => {
  const { userAgent, viewport, deviceScaleFactor, isMobile, hasTouch } = devices['Pixel 7']
  test.use({ userAgent, viewport, deviceScaleFactor, isMobile, hasTouch })

  test('without a wallet: open this checkout in a wallet app, or pay manually', async ({
    page,
  }) => {
    const session = await createSession('10.00', 'USD')
    await openPage(page, session, { wallet: false })
    await page.evaluate(() => (document.querySelector('paysession-checkout') as any).open())
    await waitForStep(page, 'chooseWallet')
    const url = page.url()
    for (const [name, href] of walletLinks(url))
      await expect(dialog(page).getByRole('link', { name })).toHaveAttribute('href', href)
    expect(walletLinks('https://shop.example/checkout/ps_1?x=1')).toEqual([
      ['MetaMask', 'https://link.metamask.io/dapp/shop.example/checkout/ps_1?x=1'],
      [
        'Coinbase Wallet',
        'https://go.cb-w.com/dapp?cb_url=https%3A%2F%2Fshop.example%2Fcheckout%2Fps_1%3Fx%3D1',
      ],
      [
        'Trust Wallet',
        'https://link.trustwallet.com/open_url?coin_id=60&url=https%3A%2F%2Fshop.example%2Fcheckout%2Fps_1%3Fx%3D1',
      ],
    ])
    await expect(dialog(page).locator('[part~="qr"]')).toHaveCount(0)
    await shot(page, 'no-wallet-phone')
    await expectAxeClean(page)
    await dialog(page)
      .getByRole('button', { name: 'Pay from another wallet or an exchange' })
      .click()
    await waitForStep(page, 'manual')
  })
})
