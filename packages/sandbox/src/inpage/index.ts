import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  custom,
  type EIP1193Provider,
  type Hex,
  hexToBytes,
  parseEther,
} from 'viem'
import { HDKey, hdKeyToAccount, privateKeyToAccount } from 'viem/accounts'
import { toUnits } from '../amounts.js'
import { type ChainClients, localChain } from '../chain/clients.js'
import { type Artifacts, deployTokens } from '../chain/deploy.js'
import { customers as testCustomers } from '../chain/pay.js'
import { erc20Abi, LOCAL_TOKENS, tokenBySymbol } from '../chain/tokens.js'
import { createClock, type SandboxClock } from '../clock.js'
import {
  type Context,
  newApiKey,
  type ServiceOptions,
  serviceOptions as withDefaults,
} from '../service/context.js'
import { randomId } from '../service/crypto.js'
import { createService } from '../service/service.js'
import { TOKEN_DECIMALS } from '../service/sessions.js'
import type { Storage } from '../service/storage.js'
import { type WebhookBacklog, webhookBacklog } from '../service/webhooks.js'
import { createMemoryStorage } from './storage.js'

// The in-page adapter: the same service over any EIP-1193 chain (the browser chain, or anvil
// through viem), storage handed in (in memory by default), webhooks delivered by a function,
// and the API answered by `handle` instead of a server. Nothing here needs Node.

export { localChain } from '../chain/clients.js'
export { CUSTOMER_KEYS } from '../chain/pay.js'
export { LOCAL_TOKENS } from '../chain/tokens.js'
export type { WebhookBacklog } from '../service/webhooks.js'
export { createMemoryStorage, type MemoryState } from './storage.js'

export interface InPageOptions {
  /** The chain: an EIP-1193 provider such as `createBrowserChain()`. */
  provider: Pick<EIP1193Provider, 'request'> | { request(args: never): Promise<unknown> }
  /** The compiled test tokens: `@paysession/sandbox/artifacts/contracts.json`. */
  artifacts: Artifacts
  /** Default: a fresh in-memory store. */
  storage?: Storage
  /** How webhooks go out; default `fetch`. An in-page merchant passes its own handler. */
  deliver?: Context['deliver']
  /** The merchant API key. Default: the storage's own, generated once and kept there. */
  apiKey?: string
  merchantId?: string
  seed?: Hex
  fundingWindowSeconds?: number
  tokenTtlSeconds?: number
  webhookUrl?: string
  webhookSecret?: string
  /** Attempts before a delivery is given up. Default: no limit (webhookRetryHours decides). */
  webhookMaxAttempts?: number
  /** First retry delay in ms (default 500); each next one doubles, up to webhookMaxRetryDelay. */
  webhookRetryDelay?: number
  /** Longest delay between two attempts, in ms. Default 300000 (5 minutes). */
  webhookMaxRetryDelay?: number
  /**
   * How long after an update a failing delivery is retried, in hours. Default 24. Until then the
   * session's later updates wait behind it, so each session's updates arrive in order.
   */
  webhookRetryHours?: number
  interval?: number
  profile?: ServiceOptions['profile']
  log?: (message: string) => void
}

export interface InPageService {
  handle(request: Request): Promise<Response>
  apiKey: string
  merchantId: string
  webhookSecret: string
  treasury: Address
  clock: SandboxClock
  chain: ChainClients
  customers: { address: Address; privateKey: Hex }[]
  /** Pays a session from a test customer (default customer 0) with a real ERC-20 transfer. */
  pay(sessionId: string, options?: { token?: string; amount?: string; from?: Hex }): Promise<Hex>
  setWebhookUrl(url: string | undefined): void
  /** The updates waiting to be delivered. */
  webhookBacklog(): WebhookBacklog
  stop(): Promise<void>
}

export async function startInPageService(options: InPageOptions): Promise<InPageService> {
  const log = options.log ?? (() => {})
  const storage = options.storage ?? createMemoryStorage()
  const chainDef = localChain('http://in-page.invalid')
  const transport = custom(options.provider as Pick<EIP1193Provider, 'request'>)
  const chain: ChainClients = {
    chain: chainDef,
    publicClient: createPublicClient({
      chain: chainDef,
      transport,
      cacheTime: 0,
      pollingInterval: 100,
    }),
    testClient: createTestClient({ chain: chainDef, transport, mode: 'anvil', cacheTime: 0 }),
  }
  const customers = testCustomers()
  await deployTokens(
    options.artifacts,
    chain,
    customers.map((c) => c.address),
  )
  // anvil gives its dev accounts ETH for gas; another chain may not have.
  for (const c of customers)
    if ((await chain.publicClient.getBalance({ address: c.address })) < parseEther('1'))
      await chain.testClient.setBalance({ address: c.address, value: parseEther('1000') })

  const seed =
    options.seed ?? (storage.meta.get('seed') as Hex | undefined) ?? `0x${randomId('', 32)}`
  storage.meta.set('seed', seed)
  const webhookSecret =
    options.webhookSecret ?? storage.meta.get('webhookSecret') ?? randomId('whsec_', 24)
  storage.meta.set('webhookSecret', webhookSecret)
  const apiKey = options.apiKey ?? storage.meta.get('apiKey') ?? newApiKey()
  storage.meta.set('apiKey', apiKey)
  const hd = HDKey.fromMasterSeed(hexToBytes(seed))
  const treasury = hdKeyToAccount(hd, { accountIndex: 1, addressIndex: 0 }).address
  const serviceOptions = withDefaults({ ...options, apiKey, webhookSecret })
  const clock = createClock()
  const service = createService({
    storage,
    chain,
    clock,
    deliver: options.deliver ?? ((url, init) => fetch(url, init)),
    hd,
    treasury,
    options: serviceOptions,
    log,
    info: () => ({
      chainId: chainDef.id,
      network: 'LOCAL',
      merchantId: serviceOptions.merchantId,
      profile: serviceOptions.profile,
      treasury,
      tokens: Object.fromEntries(LOCAL_TOKENS.map((t) => [t.symbol, t])),
      customers: customers.map((c) => c.address),
      now: new Date(clock.now()).toISOString(),
    }),
  })
  service.start()

  return {
    handle: service.handle,
    apiKey: serviceOptions.apiKey,
    merchantId: serviceOptions.merchantId,
    webhookSecret,
    treasury,
    clock,
    chain,
    customers,
    async pay(sessionId, payOptions = {}) {
      const s = storage.sessions.get(sessionId)
      if (!s) throw new Error(`no session ${sessionId}`)
      const token = tokenBySymbol(payOptions.token ?? s.token_symbol)
      if (!token) throw new Error(`unknown token ${payOptions.token}`)
      const value = toUnits(payOptions.amount ?? s.amount, TOKEN_DECIMALS)
      if (value === null) throw new Error(`invalid amount ${payOptions.amount}`)
      const wallet = createWalletClient({
        account: privateKeyToAccount(payOptions.from ?? customers[0]!.privateKey),
        chain: chainDef,
        transport,
      })
      return wallet.writeContract({
        address: token.address,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [s.otw_address as Address, value],
      })
    },
    setWebhookUrl(url) {
      serviceOptions.webhookUrl = url
    },
    webhookBacklog: () => webhookBacklog(storage),
    async stop() {
      service.stop()
      await service.settle()
      storage.close()
    },
  }
}
