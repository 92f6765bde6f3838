import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { createMemoryStorage, createPaySessionConfig } from '../src/exports/index.js'
import {
  createSession,
  createTestWallet,
  type Sandbox,
  startSandbox,
  waitForStep,
  withCheckout,
} from './support.js'

// A browser-like `window` for wagmi's EIP-6963 discovery (mipd) and its injected connector: the
// config is the one createPaySessionConfig builds itself, as on a merchant's page.
let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0, chainPort: 0, quiet: true })
})
afterAll(async () => {
  await sb?.stop()
})
afterEach(() => {
  vi.unstubAllGlobals()
})

function browserWindow(ethereum?: unknown) {
  const window = Object.assign(new EventTarget(), ethereum ? { ethereum } : {})
  vi.stubGlobal('window', window)
  return window
}

/** Like a real wallet: no accounts for the page until the customer approved a connection. */
function untilApproved(provider: ReturnType<typeof createTestWallet>['provider']) {
  let approved = false
  return {
    ...provider,
    async request(args: { method: string; params?: unknown }) {
      if (args.method === 'eth_requestAccounts') approved = true
      if (args.method === 'eth_accounts' && !approved) return []
      return provider.request(args)
    },
  }
}

function announce(window: EventTarget, provider: unknown, rdns: string, name: string) {
  const info = { uuid: crypto.randomUUID(), name, icon: 'data:image/svg+xml,<svg/>', rdns }
  const send = () =>
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', { detail: { info, provider } }),
    )
  window.addEventListener('eip6963:requestProvider', send)
  send()
}

function config() {
  return createPaySessionConfig({
    apiBase: sb.apiUrl,
    rpcUrls: { 31337: sb.rpcUrl },
    storage: createMemoryStorage(),
    polling: { interval: 100, idleInterval: 300, retryDelay: 50, maxRetryDelay: 200 },
  })
}

describe('connect() without a wallet id', () => {
  test('connects the wallet announced only through EIP-6963 (no window.ethereum) and pays', async () => {
    const window = browserWindow()
    const { wallet, provider } = createTestWallet(sb.rpcUrl, sb.customers[3]!.address)
    announce(window, untilApproved(provider), 'com.example.announced', 'Announced Wallet')
    const session = await createSession(sb, '2.00')
    await withCheckout(config(), session, async (checkout) => {
      const start = await waitForStep(checkout, 'chooseWallet')
      expect(start.wallets.map((w) => w.id)).toEqual(['com.example.announced'])
      await checkout.connect()
      const chosen = await waitForStep(checkout, ['chooseToken', 'review'])
      expect(chosen.error).toBeUndefined()
      expect(chosen.account?.toLowerCase()).toBe(sb.customers[3]!.address.toLowerCase())
      if (chosen.step === 'chooseToken') checkout.selectToken(chosen.selectedToken ?? 'USDC')
      await waitForStep(checkout, 'review')
      await checkout.pay()
      await waitForStep(checkout, 'paid')
      expect(wallet.requests.filter((r) => r.method === 'eth_sendTransaction')).toHaveLength(1)
    })
  })

  test('with only window.ethereum (nothing announced) it connects the injected provider', async () => {
    const { wallet, provider } = createTestWallet(sb.rpcUrl, sb.customers[3]!.address)
    browserWindow(untilApproved(provider))
    const session = await createSession(sb, '2.00')
    await withCheckout(config(), session, async (checkout) => {
      const start = await waitForStep(checkout, 'chooseWallet')
      expect(start.wallets.map((w) => w.id)).toEqual(['injected'])
      await checkout.connect()
      const chosen = await waitForStep(checkout, ['chooseToken', 'review'])
      expect(chosen.error).toBeUndefined()
      expect(wallet.requests.some((r) => r.method === 'eth_requestAccounts')).toBe(true)
    })
  })

  test('with no wallet at all it fails with WALLET_NOT_FOUND', async () => {
    browserWindow()
    const session = await createSession(sb, '2.00')
    await withCheckout(config(), session, async (checkout) => {
      await waitForStep(checkout, 'chooseWallet')
      await checkout.connect()
      const failed = await waitForStep(checkout, ['chooseWallet', 'failed'])
      expect(failed.error?.code).toBe('WALLET_NOT_FOUND')
    })
  })
})
