// Wallets whose accounts are real wallet code (Safe, ERC-4337 accounts, an EIP-7702 EOA) in the
// page: each is announced through EIP-6963 like a browser extension, and its EIP-1193 `request`
// runs in the test process (@paysession/wallet-stacks) through a Playwright binding, which
// outlives reloads as a wallet's own state does.

import { localChain, type StackEndpoints, type TestWallet } from '@paysession/wallet-stacks'
import type { Page } from '@playwright/test'
import { env } from './env.js'

export const stacks: StackEndpoints & { paymasterUrl: string } = {
  rpcUrl: env.rpc,
  chain: localChain(env.rpc),
  bundlerUrl: process.env.E2E_BUNDLER_URL!,
  paymasterUrl: process.env.E2E_PAYMASTER_URL!,
}

/** Installs the wallet in the page (before its scripts run, and again on every reload). */
export async function injectWallet(page: Page, wallet: TestWallet) {
  const calls: { method: string; params: unknown }[] = []
  await page.exposeFunction('__realWalletRequest', async (method: string, params: unknown) => {
    calls.push({ method, params })
    try {
      return { result: (await wallet.request({ method, params })) ?? null }
    } catch (error) {
      const e = error as { code?: number; message?: string }
      return {
        error: { code: typeof e.code === 'number' ? e.code : -32603, message: String(e.message) },
      }
    }
  })
  await page.addInitScript((info) => {
    const listeners = new Map<string, Set<(value: unknown) => void>>()
    const emit = (event: string, value: unknown) => {
      for (const fn of listeners.get(event) ?? []) fn(value)
    }
    const provider = {
      async request({ method, params }: { method: string; params?: unknown }) {
        const answer = await (window as any).__realWalletRequest(method, params ?? [])
        if (answer.error) {
          const error = new Error(answer.error.message) as Error & { code: number }
          error.code = answer.error.code
          throw error
        }
        if (method === 'eth_requestAccounts') emit('accountsChanged', answer.result)
        return answer.result
      },
      on(event: string, fn: (value: unknown) => void) {
        if (!listeners.has(event)) listeners.set(event, new Set())
        listeners.get(event)!.add(fn)
        return provider
      },
      removeListener(event: string, fn: (value: unknown) => void) {
        listeners.get(event)?.delete(fn)
        return provider
      },
    }
    const announce = () =>
      window.dispatchEvent(
        new CustomEvent('eip6963:announceProvider', {
          detail: Object.freeze({ info: Object.freeze(info), provider }),
        }),
      )
    window.addEventListener('eip6963:requestProvider', announce)
    announce()
  }, wallet.info)
  return { calls }
}
