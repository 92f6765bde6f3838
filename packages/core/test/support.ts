import { createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Sandbox, startSandbox } from '@paysession/sandbox'
import { type Config, createConfig, createConnector, http, mock } from '@wagmi/core'
import {
  type Address,
  type Chain,
  createPublicClient,
  defineChain,
  getAddress,
  type Hex,
  numberToHex,
  parseAbiItem,
  SwitchChainError,
  UserRejectedRequestError,
  http as viemHttp,
} from 'viem'
import {
  type Checkout,
  type CheckoutState,
  type CheckoutStep,
  type CreateCheckoutParameters,
  createCheckout,
  createMemoryStorage,
  createPaySessionConfig,
  createRegistry,
  type PaySessionConfig,
  type PaySessionStorage,
  type PollingSettings,
} from '../src/exports/index.js'

export { type Sandbox, startSandbox }

export const localChain = (rpcUrl: string): Chain =>
  defineChain({
    id: 31337,
    name: 'Local',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })

/** A second chain for "wrong network" cases; its RPC is the same anvil. */
export const otherChain = (rpcUrl: string): Chain =>
  defineChain({
    id: 1337,
    name: 'Other',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })

type MockFeatures = NonNullable<Parameters<typeof mock>[0]['features']>

/** wagmi config with the mock connector for one customer (wallet RPCs go to anvil). */
export function mockWagmi(
  sb: Sandbox,
  account: Address,
  options: {
    startOn?: 'other'
    features?: MockFeatures
    pollingInterval?: number
    /** Sees the body of every JSON-RPC request the chain clients send. */
    onRpc?: (body: string) => void
  } = {},
): Config {
  const local = localChain(sb.rpcUrl)
  const other = otherChain(sb.rpcUrl)
  const chains = (options.startOn === 'other' ? [other, local] : [local, other]) as [Chain, Chain]
  return createConfig({
    chains,
    connectors: [mock({ accounts: [account], features: options.features })],
    transports: {
      [local.id]: http(sb.rpcUrl, {
        onFetchRequest: (_request, init) => {
          options.onRpc?.(String(init.body))
        },
      }),
      [other.id]: http(sb.rpcUrl),
    },
    storage: null,
    ...(options.pollingInterval ? { pollingInterval: options.pollingInterval } : {}),
  })
}

/**
 * A scriptable EIP-1193 wallet in front of anvil, like the e2e test wallet: it can decline the
 * next transaction, hold it (the prompt stays open), or not know a chain yet.
 */
export function createTestWallet(rpcUrl: string, account: Address, knownChains = [31337]) {
  const known = new Set(knownChains)
  let chainId = knownChains[0]!
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>()
  const emit = (event: string, value: unknown) => {
    for (const fn of listeners.get(event) ?? []) fn(value)
  }
  const wallet = {
    requests: [] as { method: string; params?: unknown }[],
    rejectNext: false,
    rejectSwitch: false,
    /** When set, eth_sendTransaction waits for `release()`. */
    hold: undefined as Promise<void> | undefined,
    release: () => {},
    pendingPrompts: 0,
    /** The answer to `wallet_getCapabilities` (EIP-5792); unset: the wallet does not speak it. */
    capabilities: undefined as Record<string, Record<string, unknown>> | undefined,
    holdNext() {
      this.hold = new Promise<void>((resolve) => {
        this.release = resolve
      })
    },
    get chainId() {
      return chainId
    },
  }
  const rpc = async (method: string, params: unknown) => {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
    const body = (await response.json()) as {
      result?: unknown
      error?: { code: number; message: string }
    }
    if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code })
    return body.result
  }
  const provider = {
    on(event: string, fn: (...args: unknown[]) => void) {
      if (!listeners.has(event)) listeners.set(event, new Set())
      listeners.get(event)!.add(fn)
    },
    removeListener(event: string, fn: (...args: unknown[]) => void) {
      listeners.get(event)?.delete(fn)
    },
    async request({ method, params }: { method: string; params?: unknown }) {
      wallet.requests.push({ method, params })
      switch (method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          return [account]
        case 'eth_chainId':
          return numberToHex(chainId)
        case 'wallet_requestPermissions':
        case 'wallet_revokePermissions':
          return [{ parentCapability: 'eth_accounts' }]
        case 'wallet_switchEthereumChain': {
          const next = Number((params as [{ chainId: Hex }])[0].chainId)
          if (wallet.rejectSwitch) throw Object.assign(new Error('User rejected'), { code: 4001 })
          if (!known.has(next)) throw Object.assign(new Error('Unrecognized chain'), { code: 4902 })
          chainId = next
          emit('chainChanged', numberToHex(next))
          return null
        }
        case 'wallet_addEthereumChain': {
          const next = Number((params as [{ chainId: Hex }])[0].chainId)
          known.add(next)
          chainId = next
          emit('chainChanged', numberToHex(next))
          return null
        }
        case 'wallet_getCapabilities':
          if (!wallet.capabilities)
            throw Object.assign(new Error('Unsupported method'), { code: 4200 })
          return wallet.capabilities
        case 'eth_sendTransaction': {
          if (wallet.rejectNext) {
            wallet.rejectNext = false
            throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
          }
          if (wallet.hold) {
            wallet.pendingPrompts++
            await wallet.hold
            wallet.pendingPrompts--
            wallet.hold = undefined
          }
          return rpc(method, params)
        }
        default:
          return rpc(method, params)
      }
    },
  }
  return { wallet, provider }
}

/**
 * A wallet connector for the scriptable test wallet (what `injected` does in a browser, where
 * `window` exists): switches chains, adds an unknown chain on 4902, forwards the rest.
 */
function testWalletConnector(provider: ReturnType<typeof createTestWallet>['provider']) {
  let connected = false
  return createConnector((config) => ({
    id: 'testWallet',
    name: 'Test Wallet',
    type: 'injected',
    async connect() {
      const accounts = (await provider.request({ method: 'eth_requestAccounts' })) as Address[]
      connected = true
      return {
        accounts: accounts.map((a) => getAddress(a)),
        chainId: await this.getChainId(),
      } as any
    },
    async disconnect() {
      connected = false
    },
    async getAccounts() {
      return ((await provider.request({ method: 'eth_accounts' })) as Address[]).map((a) =>
        getAddress(a),
      )
    },
    async getChainId() {
      return Number(await provider.request({ method: 'eth_chainId' }))
    },
    async getProvider() {
      return provider
    },
    async isAuthorized() {
      return connected
    },
    async switchChain({ chainId, addEthereumChainParameter }) {
      const chain = config.chains.find((c) => c.id === chainId)!
      const hexId = numberToHex(chainId)
      try {
        await provider.request({
          method: 'wallet_switchEthereumChain',
          params: [{ chainId: hexId }],
        })
      } catch (error) {
        if ((error as { code?: number }).code === 4001)
          throw new UserRejectedRequestError(error as Error)
        if ((error as { code?: number }).code !== 4902) throw new SwitchChainError(error as Error)
        await provider.request({
          method: 'wallet_addEthereumChain',
          params: [{ chainId: hexId, chainName: chain.name, ...addEthereumChainParameter }],
        })
      }
      config.emitter.emit('change', { chainId })
      return chain
    },
    onAccountsChanged(accounts) {
      config.emitter.emit('change', { accounts: accounts.map((a) => getAddress(a)) })
    },
    onChainChanged(chain) {
      config.emitter.emit('change', { chainId: Number(chain) })
    },
    onDisconnect() {
      connected = false
      config.emitter.emit('disconnect')
    },
  }))
}

/** wagmi config with the scriptable test wallet. */
export function testWalletWagmi(
  sb: Sandbox,
  provider: ReturnType<typeof createTestWallet>['provider'],
): Config {
  const local = localChain(sb.rpcUrl)
  const other = otherChain(sb.rpcUrl)
  return createConfig({
    chains: [local, other],
    connectors: [testWalletConnector(provider)],
    transports: { [local.id]: http(sb.rpcUrl), [other.id]: http(sb.rpcUrl) },
    storage: null,
    multiInjectedProviderDiscovery: false,
  })
}

export function paySessionConfig(
  sb: Sandbox,
  wagmiConfig: Config,
  options: {
    storage?: PaySessionStorage
    apiBase?: string
    polling?: Partial<PollingSettings>
    fetch?: typeof fetch
  } = {},
) {
  return createPaySessionConfig({
    apiBase: options.apiBase ?? sb.apiUrl,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    wagmiConfig,
    registry: createRegistry({ localRpcUrl: sb.rpcUrl }),
    storage: options.storage ?? createMemoryStorage(),
    polling: {
      interval: 100,
      idleInterval: 300,
      retryDelay: 50,
      maxRetryDelay: 400,
      ...options.polling,
    },
    confirmations: 1,
  })
}

export async function createSession(sb: Sandbox, amount = '10.00', currency = 'USD') {
  const response = await fetch(`${sb.apiUrl}/api/v1/payment-sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amount, currency }),
  })
  if (response.status !== 200)
    throw new Error(`create session: ${response.status} ${await response.text()}`)
  return (await response.json()) as {
    paymentSessionId: string
    paymentSessionToken: string
    oneTimeWalletAddress: Address
  }
}

/** Final capture with the API key, to move a FUNDED session to SUCCEEDED. */
export async function captureAll(sb: Sandbox, sessionId: string, amount: string) {
  const response = await fetch(`${sb.apiUrl}/api/v1/payment-sessions/${sessionId}/captures`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      requestId: crypto.randomUUID(),
      captureAmount: amount,
      isFinalCapture: true,
    }),
  })
  if (response.status !== 202)
    throw new Error(`capture: ${response.status} ${await response.text()}`)
}

/** Transfer events into `to` on `token`, read straight from the chain. */
export async function transfersTo(sb: Sandbox, token: Address, to: Address) {
  const client = createPublicClient({ transport: viemHttp(sb.rpcUrl), cacheTime: 0 })
  return client.getLogs({
    address: token,
    event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'),
    args: { to },
    fromBlock: 0n,
  })
}

/** A raw JSON-RPC call to the sandbox's anvil (mining control, replacements). */
export async function anvilRpc<T = unknown>(sb: Sandbox, method: string, params: unknown[] = []) {
  const response = await fetch(sb.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await response.json()) as { result?: T; error?: { message: string } }
  if (body.error) throw new Error(`${method}: ${body.error.message}`)
  return body.result as T
}

/** Resolves with the state once `step` is reached; records every step seen. */
export function waitForStep(
  checkout: Checkout,
  step: CheckoutStep | CheckoutStep[],
  timeout = 20_000,
) {
  const wanted = Array.isArray(step) ? step : [step]
  return new Promise<CheckoutState>((resolve, reject) => {
    const check = (state: CheckoutState) => {
      if (!wanted.includes(state.step)) return false
      clearTimeout(timer)
      unsubscribe()
      resolve(state)
      return true
    }
    const timer = setTimeout(() => {
      unsubscribe()
      const s = checkout.getState()
      reject(
        new Error(
          `never reached ${wanted}; at ${s.step} ${s.error?.code ?? ''} ${s.error?.message ?? ''}`,
        ),
      )
    }, timeout)
    const unsubscribe = checkout.subscribe(check)
    check(checkout.getState())
  })
}

/**
 * The usual way to a payment: the wallet list, `wallet` connected, the token list, `token`
 * chosen. Resolves with the token list's state; `pay()` is the test's to call.
 */
export async function connectAndChoose(checkout: Checkout, wallet = 'mock', token = 'USDC') {
  await waitForStep(checkout, 'chooseWallet')
  await checkout.connect(wallet)
  const choose = await waitForStep(checkout, 'chooseToken')
  checkout.selectToken(token)
  return choose
}

export function recordSteps(checkout: Checkout) {
  const steps: CheckoutStep[] = [checkout.getState().step]
  checkout.subscribe((state) => {
    if (steps[steps.length - 1] !== state.step) steps.push(state.step)
  })
  return steps
}

/**
 * The checkout of a created session, the steps it went through, and `destroy()` once `run` ends,
 * passed or failed: the setup every checkout test shares.
 * @example await withCheckout(config, session, async (checkout, steps) => { ... })
 */
export async function withCheckout<T>(
  config: PaySessionConfig,
  session: { paymentSessionId: string; paymentSessionToken: string },
  run: (checkout: Checkout, steps: CheckoutStep[]) => Promise<T>,
  parameters: Partial<CreateCheckoutParameters> = {},
): Promise<T> {
  const checkout = createCheckout(config, {
    sessionId: session.paymentSessionId,
    sessionToken: session.paymentSessionToken,
    ...parameters,
  })
  const steps = recordSteps(checkout)
  try {
    return await run(checkout, steps)
  } finally {
    checkout.destroy()
  }
}

/**
 * A real HTTP proxy in front of the sandbox that answers 503 to the requests `failWhen` picks:
 * an outage of the service, as a browser would meet it.
 */
export async function startFlakyProxy(
  target: string,
  failWhen: (method: string, url: string) => boolean,
) {
  const seen: { method: string; url: string; status: number }[] = []
  const server = createServer((req, res) => {
    const method = req.method ?? 'GET'
    const url = req.url ?? '/'
    if (failWhen(method, url)) {
      seen.push({ method, url, status: 503 })
      res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable')
      req.resume()
      return
    }
    const upstream = httpRequest(`${target}${url}`, { method, headers: req.headers }, (up) => {
      seen.push({ method, url, status: up.statusCode ?? 0 })
      res.writeHead(up.statusCode ?? 502, up.headers)
      up.pipe(res)
    })
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/**
 * A real HTTP JSON-RPC proxy in front of anvil that refuses `eth_getLogs` over more than
 * `maxRange` blocks, with the answer a hosted RPC gives (Alchemy's wording): what a browser meets
 * on a fast chain. Records every `eth_getLogs` range it saw and whether it was served.
 */
export async function startRangeLimitedRpc(target: string, maxRange: number) {
  const ranges: { from: bigint; to: bigint; served: boolean }[] = []
  const call = async (body: unknown) => {
    const response = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return response.json() as Promise<{ result?: unknown }>
  }
  const block = async (tag: unknown) => {
    if (tag === undefined || tag === 'latest' || tag === 'pending' || tag === 'safe')
      return BigInt(
        (await call({ jsonrpc: '2.0', id: 0, method: 'eth_blockNumber' })).result as Hex,
      )
    if (tag === 'earliest') return 0n
    return BigInt(tag as Hex)
  }
  const answer = async (request: { id: unknown; method: string; params?: unknown[] }) => {
    if (request.method === 'eth_getLogs') {
      const filter = (request.params?.[0] ?? {}) as { fromBlock?: unknown; toBlock?: unknown }
      const from = await block(filter.fromBlock ?? 'latest')
      const to = await block(filter.toBlock)
      const served = to - from + 1n <= BigInt(maxRange)
      ranges.push({ from, to, served })
      if (!served)
        return {
          jsonrpc: '2.0',
          id: request.id,
          error: {
            code: -32602,
            message: `Log response size exceeded. You can make eth_getLogs requests with up to a ${maxRange} block range.`,
          },
        }
    }
    return call(request)
  }
  const server = createServer((req, res) => {
    let text = ''
    req.on('data', (chunk) => {
      text += chunk
    })
    req.on('end', async () => {
      try {
        const body = JSON.parse(text)
        const result = Array.isArray(body)
          ? await Promise.all(body.map(answer))
          : await answer(body)
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result))
      } catch (error) {
        res.writeHead(500).end(String(error))
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    ranges,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
