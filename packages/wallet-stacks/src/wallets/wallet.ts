import { type Address, type Chain, numberToHex } from 'viem'

/** An EIP-1193 error (`code` 4001 rejected, 4100 unauthorized, 4200 unsupported, ...). */
export class ProviderRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

/** One wallet as a page sees it: EIP-6963 info and an EIP-1193 `request`, backed by real account code. */
export type TestWallet = {
  info: { uuid: string; name: string; rdns: string; icon: string }
  /** The account the wallet pays from (the Safe, the smart account, the delegated EOA). */
  address: Address
  request(args: { method: string; params?: unknown }): Promise<unknown>
}

type Methods = Record<string, (params: unknown[]) => Promise<unknown>>

const icon = (letter: string) =>
  `data:image/svg+xml,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#334"/><text x="16" y="22" font-size="16" text-anchor="middle" fill="#fff">${letter}</text></svg>`,
  )}`

/**
 * The parts every wallet shares: one account on one chain, connection, chain reads forwarded
 * to the node; `methods` are what makes each wallet itself (sending, EIP-5792, signing).
 */
export function createTestWallet(options: {
  name: string
  rdns: string
  address: Address
  chain: Chain
  rpcUrl: string
  methods: Methods
}): TestWallet {
  const { address, chain } = options
  const chainId = numberToHex(chain.id)
  let id = 0
  let connected = false
  const node = async (method: string, params: unknown[]) => {
    const response = await fetch(options.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    })
    const body = (await response.json()) as {
      result?: unknown
      error?: { code: number; message: string }
    }
    if (body.error) throw new ProviderRpcError(body.error.code, body.error.message)
    return body.result
  }
  const common: Methods = {
    eth_chainId: async () => chainId,
    net_version: async () => String(chain.id),
    // Connected once the site asked (and still after a reload, as a wallet remembers sites).
    eth_accounts: async () => (connected ? [address] : []),
    eth_requestAccounts: async () => {
      connected = true
      return [address]
    },
    wallet_requestPermissions: async () => {
      connected = true
      return [{ parentCapability: 'eth_accounts', caveats: [] }]
    },
    wallet_getPermissions: async () =>
      connected ? [{ parentCapability: 'eth_accounts', caveats: [] }] : [],
    wallet_revokePermissions: async () => {
      connected = false
      return null
    },
    wallet_switchEthereumChain: async ([p]) => {
      if ((p as { chainId?: string })?.chainId?.toLowerCase() !== chainId)
        throw new ProviderRpcError(4902, 'Unrecognized chain.')
      return null
    },
  }
  return {
    info: {
      uuid: crypto.randomUUID(),
      name: options.name,
      rdns: options.rdns,
      icon: icon(options.name[0]!),
    },
    address,
    async request({ method, params }) {
      const list = Array.isArray(params) ? params : []
      const handler = common[method] ?? options.methods[method]
      if (
        handler &&
        !connected &&
        /^(wallet_sendCalls|eth_sendTransaction|personal_sign|eth_sign)/.test(method)
      )
        throw new ProviderRpcError(4100, 'The site is not connected.')
      if (handler) return handler(list)
      if (/^(wallet_|personal_|eth_sign|eth_sendTransaction)/.test(method))
        throw new ProviderRpcError(4200, `${options.name} does not support ${method}.`)
      return node(method, list)
    },
  }
}
