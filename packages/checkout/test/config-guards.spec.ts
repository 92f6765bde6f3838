import { expect, type Page, test } from '@playwright/test'
import {
  checkout,
  createSession,
  dialog,
  env,
  events,
  openPage,
  payButton,
  payWithTestWallet,
  transfersTo,
  waitForCheckout,
  waitForStep,
} from './support.js'

// What a page's configuration cannot do (issue 32): change a pinned token without saying so,
// make the customer pay in the wrong decimals, plant an RPC in the wallet, render a javascript:
// link, hand the customer an http x402 URL to copy, or open WalletConnect's socket to a relay
// that is neither wss nor on this machine. Each is refused with INVALID_CONFIG before any wallet
// prompt.

const usdc = {
  symbol: 'USDC',
  address: '0x91A12B6130c0Ff0377B5817157A69bFeA67DfbbC',
  decimals: 6,
  eip3009: true,
  eip712: { name: 'USD Coin', version: '2' },
}
const usdt = { symbol: 'USDT', address: '0x6d741950129e74422fb11ff179C11710c8d2d7CB', decimals: 6 }
// The LOCAL network as a page would write it in JSON, with what the test changes.
const local = (patch: { explorerUrl?: string; rpc?: string }) => ({
  name: 'LOCAL',
  chainId: 31337,
  explorerUrl: patch.explorerUrl,
  chain: {
    id: 31337,
    name: 'Local (sandbox)',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [patch.rpc ?? env.rpc] } },
  },
  tokens: [usdc, usdt],
})

const walletCalls = (page: Page): Promise<string[]> =>
  page.evaluate(() => (window as any).__wallet.calls)
const configErrors = async (page: Page) =>
  (await events(page))
    .filter((e) => e.type === 'paysession-error' && e.detail.code === 'INVALID_CONFIG')
    .map((e) => e.detail)

async function expectRefused(
  page: Page,
  details: RegExp,
  sentence = 'This checkout is not set up securely. Please contact the merchant.',
) {
  await waitForStep(page, 'failed')
  await expect(dialog(page).getByRole('alert')).toHaveText(sentence)
  await expect(dialog(page).getByRole('button', { name: 'Try again' })).toHaveCount(0)
  const errors = await configErrors(page)
  expect(errors.length).toBeGreaterThan(0)
  expect(errors.at(-1)).toMatchObject({ retryable: false, details: expect.stringMatching(details) })
}

test('a token override with the wrong decimals is refused before the wallet prompt', async ({
  page,
}) => {
  const session = await createSession('10.00', 'USD')
  const warnings: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text())
  })
  // 18 decimals for a 6-decimal token: 10.00 would be sent as 10 000 000 000 000 USDC.
  await openPage(page, session, {
    attributes: {
      tokens: JSON.stringify({
        LOCAL: [
          { ...usdc, decimals: 18 },
          { ...usdt, decimals: 18 },
        ],
      }),
      'allow-token-overrides': 'true',
    },
  })
  await payButton(page).click()
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
  await expectRefused(page, /decimals\(\) is 6, not as in the registry/)
  // The page said it meant to: the override is in the console.
  expect(warnings.join('\n')).toContain('changes pinned USDC on LOCAL, USDT on LOCAL')
  // Connected, and nothing more: no balance shown in the wrong decimals, no prompt, no transfer.
  const calls = await walletCalls(page)
  expect(calls).toContain('eth_requestAccounts')
  expect(calls.filter((m) => /send|sign/i.test(m))).toEqual([])
  await expect(dialog(page).getByText(/10,?000,?000/)).toHaveCount(0)
  expect(await transfersTo(session)).toBe(0)
})

test('changing a pinned token takes allow-token-overrides', async ({ page }) => {
  const session = await createSession('10.00', 'USD')
  await openPage(page, session, {
    attributes: { tokens: JSON.stringify({ LOCAL: [{ ...usdc, decimals: 18 }] }) },
  })
  await payButton(page).click()
  await expectRefused(page, /changes pinned USDC on LOCAL \(allow-token-overrides\)/)
  expect(await walletCalls(page)).not.toContain('eth_requestAccounts')
})

test('a javascript: explorer URL is refused before it can become a link', async ({ page }) => {
  const session = await createSession('10.00', 'USD')
  // In French: the customer reads the sentence of an insecure setup, in their language.
  await openPage(page, session, {
    locale: 'fr',
    attributes: {
      networks: JSON.stringify([local({ explorerUrl: 'javascript:alert(document.domain)' })]),
      'allow-token-overrides': 'true',
    },
  })
  await payButton(page).click()
  await expectRefused(
    page,
    /LOCAL explorerUrl "javascript:alert\(document.domain\)": not https/,
    'Ce paiement n’est pas configuré de façon sécurisée. Veuillez contacter le marchand.',
  )
  await expect(page.locator('paysession-checkout a[href^="javascript:"]')).toHaveCount(0)
  expect(await walletCalls(page)).not.toContain('eth_requestAccounts')
})

test('an http RPC is never passed to the wallet', async ({ page }) => {
  const session = await createSession('10.00', 'USD')
  const rpc = 'http://rpc.example.test:8545'
  await openPage(page, session, {
    attributes: { networks: JSON.stringify([local({ rpc })]), 'allow-token-overrides': 'true' },
  })
  await payButton(page).click()
  await expectRefused(page, /LOCAL rpcUrls "http:\/\/rpc.example.test:8545": not https/)
  const calls = await walletCalls(page)
  expect(calls).not.toContain('wallet_addEthereumChain')
  expect(calls).not.toContain('eth_requestAccounts')
  expect(await transfersTo(session)).toBe(0)
})

test('an http x402-url is refused before the customer can copy it', async ({ page }) => {
  const session = await createSession('10.00', 'USD')
  await openPage(page, session, { attributes: { 'x402-url': 'http://x402.example.test/pay' } })
  await payButton(page).click()
  await expectRefused(page, /^x402Url "http:\/\/x402.example.test\/pay": not https/)
  await expect(page.locator('paysession-checkout [part~="x402-url"]')).toHaveCount(0)
  expect(await walletCalls(page)).not.toContain('eth_requestAccounts')
})

// A page often sets a property in a script of its own, after the element: the checkout may have
// started (the page idle) by then. It starts again from the new value, checked as at the start.
test('an x402-url the page sets after the checkout started is refused too', async ({ page }) => {
  const session = await createSession('10.00', 'USD')
  await openPage(page, session)
  await waitForCheckout(page)
  await checkout(page).evaluate((el) => el.setAttribute('x402-url', 'http://x402.example.test/pay'))
  await payButton(page).click()
  await expectRefused(page, /^x402Url "http:\/\/x402.example.test\/pay": not https/)
  expect(await walletCalls(page)).not.toContain('eth_requestAccounts')
})

test('rpcUrls the page sets after the checkout started are the ones it pays through', async ({
  page,
}) => {
  const session = await createSession('10.00', 'USD')
  // Started on a port where nothing answers, as a page whose own script has not run yet.
  await openPage(page, session, { rpc: 'http://127.0.0.1:9' })
  await waitForCheckout(page)
  await checkout(page).evaluate((el, rpc) => {
    ;(el as any).rpcUrls = { 31337: rpc }
  }, env.rpc)
  await payWithTestWallet(page)
  expect(await transfersTo(session)).toBe(1)
})

// A relay off this machine over plain ws, and the local relay (global-setup.ts) with credentials
// in its URL, which opens as soon as the customer chooses WalletConnect: the URL rule ends the
// start before WalletConnect is offered. (The relay's URL is known only once global-setup.ts has
// run, so it is read in the test.)
for (const [name, relayUrl] of [
  ['over plain ws off this machine', () => 'ws://relay.example.test'],
  [
    'with credentials',
    () => process.env.WALLETCONNECT_RELAY_URL!.replace('ws://', 'ws://user:secret@'),
  ],
] as const)
  test(`a WalletConnect relay ${name} is refused before any socket opens`, async ({ page }) => {
    const relay = relayUrl()
    const session = await createSession('10.00', 'USD')
    const sockets: string[] = []
    page.on('websocket', (socket) => sockets.push(socket.url()))
    await openPage(page, session, {
      attributes: {
        'wallet-connect-project-id': 'test-project',
        'wallet-connect-relay-url': relay,
      },
    })
    await payButton(page).click()
    await expectRefused(
      page,
      new RegExp(`^walletConnectRelayUrl "${relay.replace(/[.?]/g, '\\$&')}": not wss`),
    )
    await expect(dialog(page).getByRole('button', { name: 'WalletConnect' })).toHaveCount(0)
    expect(sockets).toEqual([])
    expect(await walletCalls(page)).not.toContain('eth_requestAccounts')
  })
