import { createRequire } from 'node:module'
import { expect, type Page, test } from '@playwright/test'
import { PNG } from 'pngjs'
import type { Hex } from 'viem'
import {
  createSession,
  dialog,
  env,
  expectAxeClean,
  openPage,
  payButton,
  referenceShot,
  transfersTo,
  waitForStatus,
  waitForStep,
} from './support.js'
import { installWallet } from './wallet.js'
import { startWalletConnectWallet } from './walletconnect/wallet.js'

// Both real ends of WalletConnect, offline: wagmi's connector in the page (the script-tag build's
// walletconnect.js) and a wallet on the WalletConnect wallet SDK in this process, meeting on the
// local relay global-setup.ts starts (test/walletconnect/relay.ts). The wallet signs with a test
// customer's key and sends to the sandbox's anvil; the sandbox sees the session paid over HTTP.

// jsQR is CommonJS with its types written as an ES default export.
const jsQR: typeof import('jsqr').default = createRequire(import.meta.url)('jsqr')
const customers = JSON.parse(process.env.SANDBOX_CUSTOMERS!) as { address: Hex; privateKey: Hex }[]
const relayUrl = process.env.WALLETCONNECT_RELAY_URL!

/** The pairing QR code on the page, read from a screenshot as a phone's camera would. */
async function scanQr(page: Page) {
  const qr = dialog(page).getByRole('img', { name: 'WalletConnect QR code' })
  await expect(qr).toBeVisible()
  const png = PNG.sync.read(await qr.screenshot())
  const scanned = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data
  expect(scanned).toMatch(/^wc:[0-9a-f]{64}@2\?/)
  return scanned!
}

const startWallet = () =>
  startWalletConnectWallet({
    relayUrl,
    rpcUrl: env.rpc,
    chainId: 31337,
    // Customer 1: customer 0 is the injected test wallet of the other specs.
    privateKey: customers[1]!.privateKey,
  })

const withWalletConnect = {
  wallet: false,
  attributes: { 'wallet-connect-project-id': 'test-project', 'wallet-connect-relay-url': relayUrl },
}

test('WalletConnect: a phone wallet scans the QR code, connects through the relay and pays once', async ({
  page,
}) => {
  // WalletConnect's domain verification is unreachable here: fail it at once, as offline.
  await page.route('https://verify.walletconnect.org/**', (route) => route.abort())
  const hosts = new Set<string>()
  page.on('request', (request) => hosts.add(new URL(request.url()).host))
  const wallet = await startWallet()
  try {
    const session = await createSession('10.00', 'USD')
    const { errors } = await openPage(page, session, withWalletConnect)
    await payButton(page).click()
    await waitForStep(page, 'chooseWallet')
    await dialog(page).getByRole('button', { name: 'WalletConnect' }).click()

    // The pairing QR code, scanned from the screen as a phone would.
    const qr = dialog(page).getByRole('img', { name: 'WalletConnect QR code' })
    await expect(qr).toBeVisible()
    await expect(dialog(page).getByRole('button', { name: 'Copy link' })).toBeFocused()
    await expectAxeClean(page)
    await referenceShot(page, 'walletconnect-pairing')
    // Nothing is sent while no phone has scanned: the customer may close and come back to it.
    await page.keyboard.press('Escape')
    await expect(dialog(page)).toBeHidden()
    await payButton(page).click()
    await wallet.pair(await scanQr(page))

    await waitForStep(page, 'chooseToken')
    await dialog(page).getByRole('button', { name: /USDC/ }).click()
    await waitForStep(page, 'review')
    await dialog(page).getByRole('button', { name: /^Pay / }).click()
    await waitForStep(page, 'paid')
    await expect(dialog(page).getByRole('heading', { name: 'Payment received' })).toBeVisible()

    await waitForStatus(session, ['FUNDED'])
    expect(wallet.sent).toHaveLength(1)
    expect(await transfersTo(session)).toBe(1)
    expect(wallet.requests.filter((m) => m === 'eth_sendTransaction')).toHaveLength(1)
    // The page reached only this machine (pages, sandbox, anvil, the relay) and the verify host.
    const elsewhere = [...hosts].filter((host) => !host.startsWith('127.0.0.1:'))
    expect(elsewhere.filter((host) => host !== 'verify.walletconnect.org')).toEqual([])
    expect(errors).toEqual([])
  } finally {
    await wallet.close()
  }
})

test('WalletConnect: declined on the phone, said plainly; scanning a new code connects', async ({
  page,
}) => {
  await page.route('https://verify.walletconnect.org/**', (route) => route.abort())
  const wallet = await startWallet()
  try {
    const session = await createSession('10.00', 'USD')
    const { errors } = await openPage(page, session, withWalletConnect)
    await payButton(page).click()
    await waitForStep(page, 'chooseWallet')
    await dialog(page).getByRole('button', { name: 'WalletConnect' }).click()
    wallet.declineNext = true
    const first = await scanQr(page)
    await wallet.pair(first)
    await waitForStep(page, 'chooseWallet')
    await expect(dialog(page).getByRole('alert')).toHaveText(
      'The request was declined in your wallet.',
    )
    await dialog(page).getByRole('button', { name: 'WalletConnect' }).click()
    const second = await scanQr(page)
    expect(second).not.toBe(first)
    await wallet.pair(second)
    await waitForStep(page, 'chooseToken')
    expect(wallet.sent).toEqual([])
    expect(errors).toEqual([])
  } finally {
    await wallet.close()
  }
})

test('WalletConnect: without a project id the checkout offers none and never fetches walletconnect.js', async ({
  page,
}) => {
  const fetched: string[] = []
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname))
  const session = await createSession('10.00', 'USD')
  const { errors } = await openPage(page, session)
  await payButton(page).click()
  await waitForStep(page, 'chooseWallet')
  await expect(dialog(page).getByRole('button', { name: 'Test Wallet' })).toBeVisible()
  await expect(dialog(page).getByRole('button', { name: 'WalletConnect' })).toHaveCount(0)
  expect(fetched.some((path) => path.includes('/dist/cdn/'))).toBe(true)
  expect(fetched.filter((path) => path.endsWith('/walletconnect.js'))).toEqual([])
  expect(errors).toEqual([])
})

test('WalletConnect: the single-file build has none and says so in the console', async ({
  page,
}) => {
  const warnings: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text())
  })
  await page.addInitScript(installWallet, { rpcUrl: env.rpc, account: env.customer })
  const session = await createSession('10.00', 'USD')
  const query = new URLSearchParams({
    'session-id': session.paymentSessionId,
    'session-token': session.paymentSessionToken,
    'api-base': env.api,
    rpc: env.rpc,
    'wallet-connect-project-id': 'test-project',
  })
  await page.goto(`${env.page}/test/pages/full.html?${query}`)
  await payButton(page).click()
  await waitForStep(page, 'chooseWallet')
  await expect(dialog(page).getByRole('button', { name: 'Test Wallet' })).toBeVisible()
  await expect(dialog(page).getByRole('button', { name: 'WalletConnect' })).toHaveCount(0)
  expect(warnings).toContain('paysession-checkout: no WalletConnect in this build')
})
