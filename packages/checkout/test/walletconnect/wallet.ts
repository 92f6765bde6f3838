import { SignClient } from '@walletconnect/sign-client'
import { createWalletClient, defineChain, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

/**
 * A phone wallet for tests, built on the WalletConnect wallet SDK (`@walletconnect/sign-client`,
 * which Reown's WalletKit wraps): it pairs with the URI a page shows, approves the session on
 * one chain, and answers `eth_sendTransaction` by signing with its key and sending to that chain's
 * node (anvil) with viem. Every other request gets "unsupported method", as a plain wallet would.
 */
export type TestWalletConnectWallet = {
  address: Hex
  /** Scans the pairing URI (`wc:…`). */
  pair(uri: string): Promise<void>
  /** Declines the next session proposal (the customer taps "Reject" on the phone). */
  declineNext: boolean
  /** Every method the dapp asked for, in order. */
  readonly requests: string[]
  /** The hashes of the transactions it sent. */
  readonly sent: Hex[]
  close(): Promise<void>
}

// The wallet's storage: memory, so that a test run writes no files and starts clean.
function memoryStorage() {
  const items = new Map<string, unknown>()
  return {
    getKeys: async () => [...items.keys()],
    getEntries: async <T>() => [...items.entries()] as [string, T][],
    getItem: async <T>(key: string) => items.get(key) as T | undefined,
    setItem: async <T>(key: string, value: T) => void items.set(key, value),
    removeItem: async (key: string) => void items.delete(key),
  }
}

export async function startWalletConnectWallet(options: {
  relayUrl: string
  rpcUrl: string
  chainId: number
  privateKey: Hex
}): Promise<TestWalletConnectWallet> {
  const account = privateKeyToAccount(options.privateKey)
  const chain = defineChain({
    id: options.chainId,
    name: 'Local test chain',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  })
  const signer = createWalletClient({ account, chain, transport: http(options.rpcUrl) })
  const caip2 = `eip155:${options.chainId}`
  const requests: string[] = []
  const sent: Hex[] = []

  const client = await SignClient.init({
    projectId: 'test-wallet',
    relayUrl: options.relayUrl,
    telemetryEnabled: false,
    // Its own core in this process (the page's client runs in the browser).
    customStoragePrefix: `test-wallet-${crypto.randomUUID()}`,
    storage: memoryStorage() as never,
    logger: 'error',
    metadata: {
      name: 'Test phone wallet',
      description: 'A WalletConnect wallet for tests',
      url: 'https://wallet.example',
      icons: [],
    },
  })

  const wallet: TestWalletConnectWallet = {
    address: account.address,
    declineNext: false,
    requests,
    sent,
    pair: async (uri) => {
      await client.pair({ uri })
    },
    close: async () => {
      await client.core.relayer.transportClose().catch(() => {})
    },
  }

  client.on('session_proposal', async ({ id, params }) => {
    if (wallet.declineNext) {
      wallet.declineNext = false
      // The SDK's own reason (`getSdkError('USER_REJECTED')` of @walletconnect/utils).
      return client.reject({ id, reason: { code: 5000, message: 'User rejected.' } })
    }
    const asked = { ...params.optionalNamespaces, ...params.requiredNamespaces }.eip155
    await client.approve({
      id,
      namespaces: {
        eip155: {
          chains: [caip2],
          accounts: [`${caip2}:${account.address}`],
          methods: asked?.methods ?? ['eth_sendTransaction'],
          events: asked?.events ?? ['chainChanged', 'accountsChanged'],
        },
      },
    })
  })

  client.on('session_request', async ({ id, topic, params }) => {
    const { method, params: args } = params.request as { method: string; params: unknown[] }
    requests.push(method)
    const respond = (
      response: { result: unknown } | { error: { code: number; message: string } },
    ) => client.respond({ topic, response: { id, jsonrpc: '2.0', ...response } })
    try {
      if (method === 'eth_sendTransaction') {
        const tx = args[0] as { to: Hex; data?: Hex; value?: Hex; gas?: Hex }
        const hash = await signer.sendTransaction({
          to: tx.to,
          ...(tx.data ? { data: tx.data } : {}),
          ...(tx.value ? { value: BigInt(tx.value) } : {}),
        })
        sent.push(hash)
        return await respond({ result: hash })
      }
      if (method === 'wallet_switchEthereumChain') {
        const wanted = Number((args[0] as { chainId: string }).chainId)
        if (wanted === options.chainId) return await respond({ result: null })
        return await respond({ error: { code: 4902, message: 'Unrecognized chain' } })
      }
      await respond({ error: { code: 4200, message: `Unsupported method: ${method}` } })
    } catch (error) {
      await respond({ error: { code: -32000, message: (error as Error).message } })
    }
  })

  return wallet
}
