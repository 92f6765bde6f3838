import contracts from '@paysession/sandbox/artifacts/contracts.json' with { type: 'json' }
import {
  CUSTOMER_KEYS,
  createMemoryStorage,
  LOCAL_TOKENS,
  localChain,
  startInPageService,
  type WebhookBacklog,
} from '@paysession/sandbox/inpage'
import {
  createPaySessionClient,
  isPaySessionError,
  type PaySessionClient,
} from '@paysession/server'
import { createConfig, injected, type Config as WagmiConfig } from '@wagmi/core'
import { custom } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { WalletConfig } from '../src/pages/checkout.js'
import { type BalanceReader, createBalanceReader } from '../src/server/balances.js'
import { createOrderStore, type OrderStore } from '../src/server/orders.js'
import {
  createSessionReader,
  type SessionReader,
  sandboxTokenRenewal,
} from '../src/server/sessions.js'
import { createWebhookLog, type WebhookLog } from '../src/server/webhookLog.js'
import { memoryPersistence, openPersistence, type Persistence, type Saved } from './persistence.js'
import { SETUP_JOURNAL_FILE, type SetupJournal } from './setupJournal.js'

// Everything the Node demo runs in processes, started in this tab: the chain (ethereumjs, its own
// lazy chunk), the Payment Session Service (the sandbox's in-page adapter) and the merchant's
// server side (@paysession/server, its orders and its webhook log), all saved in IndexedDB.

/** Where the widget and the merchant's client "reach" the service. Nothing is sent there. */
export const SERVICE_URL = 'https://service.in-page.invalid'
/** Where the service "posts" its webhooks: answered by the merchant's handler in this tab. */
export const WEBHOOK_URL = 'https://merchant.in-page.invalid/webhooks'
/** Shown where the Node demo shows its anvil URL. */
export const CHAIN_LABEL = 'in-page (ethereumjs)'

export type World = {
  /** False when nothing survives a reload (no IndexedDB in this browser). */
  durable: boolean
  serviceUrl: string
  webhookUrl: string
  client: PaySessionClient
  /** Sessions read as the Node demo reads them: the order's token, renewed, then the API key. */
  sessions: SessionReader
  orders: OrderStore
  webhooks: WebhookLog
  /** What the in-page service still has to deliver. */
  webhookBacklog: () => WebhookBacklog
  balances: BalanceReader
  treasury: string
  wallet: WalletConfig
  /** The service's API in this tab: the widget's `fetch`. */
  fetch: typeof globalThis.fetch
  /** The chain for the widget's reads (wagmi with a `custom` transport over the in-page chain). */
  wagmiConfig: WagmiConfig
  /** Fresh session token for an order (the sandbox's renewal extension, with the API key). */
  renewSessionToken(
    paymentSessionId: string,
  ): Promise<{ token: string; expiresAt: string | undefined } | undefined>
  /** An error as the Node demo shows it: the customer's sentence and the stable code. */
  describeError(error: unknown): string
  /** Stops the service's background work and closes the database (before a reset). */
  stop(): Promise<void>
}

/** The chain alone, for the Sandbox Wallet, which may ask before the rest has started. */
export type Chain = { request(args: { method: string; params?: unknown }): Promise<unknown> }

const tokens = LOCAL_TOKENS.map((t) => ({
  symbol: t.symbol,
  address: t.address,
  decimals: t.decimals,
}))
const chainDefinition = localChain(SERVICE_URL)
/** The Sandbox Wallet's configuration: the in-page chain's unlocked test customers. */
const wallet: WalletConfig = {
  rpcUrl: CHAIN_LABEL,
  chainId: chainDefinition.id,
  accounts: CUSTOMER_KEYS.map((key) => privateKeyToAccount(key).address),
  tokens,
}

/**
 * A new chain starts from the setup the build made (setupJournal.ts), moved to now: the same
 * transactions, replayed and saved in one write. Without it (a build that has none, a failed
 * fetch) the chain starts empty and the service runs the setup itself.
 */
async function firstStart(db: Persistence): Promise<Pick<Saved, 'genesisTimestamp' | 'journal'>> {
  const setup = await fetch(new URL(`./${SETUP_JOURNAL_FILE}`, document.baseURI))
    .then((response) => (response.ok ? (response.json() as Promise<SetupJournal>) : undefined))
    .catch(() => undefined)
  const last = setup?.journal.flatMap((e) => ('timestamp' in e ? [e.timestamp] : [])).at(-1)
  if (!setup || last === undefined) return { genesisTimestamp: undefined, journal: [] }
  // Its last block made now, each earlier one as long before as at the build.
  const shift = BigInt(Math.floor(Date.now() / 1000)) - BigInt(last)
  const journal = setup.journal.map((e) =>
    'timestamp' in e ? { ...e, timestamp: (BigInt(e.timestamp) + shift).toString() } : e,
  )
  const genesisTimestamp = setup.genesisTimestamp + Number(shift)
  await db.begin(genesisTimestamp, journal)
  return { genesisTimestamp, journal }
}

export async function startWorld(
  onChain: (chain: Chain, wallet: WalletConfig) => void,
): Promise<World> {
  const db = await openPersistence().catch((error) => {
    console.warn('The hosted demo runs without saving (no IndexedDB):', error)
    return memoryPersistence()
  })
  const { saved } = db
  const failed = (what: string) => (error: unknown) =>
    console.error(`The hosted demo could not save ${what}:`, error)

  // A chain saved before is replayed. One whose first start was cut short (a journal saved
  // without the build's setup) resumes its setup where the journal ends: the sandbox's runSetup
  // sends only the steps it lacks.
  const start =
    saved.genesisTimestamp === undefined && !saved.journal.length ? await firstStart(db) : saved
  const { createBrowserChain } = await import('./chain.js')
  const chain = await createBrowserChain({
    accounts: CUSTOMER_KEYS,
    journal: start.journal,
    genesisTimestamp: start.genesisTimestamp,
    // Awaited: the chain answers only once the step is saved (persistence.ts).
    onJournal: (entry) => db.appendJournal(entry),
  })
  if (start.genesisTimestamp === undefined) await db.put('genesisTimestamp', chain.genesisTimestamp)
  onChain(chain, wallet)

  const storage = createMemoryStorage(saved.service, (state) => {
    db.put('service', state).catch(failed('the service'))
  })
  // The merchant's webhook endpoint, bound once the merchant's side exists (below).
  let onWebhook: WebhookLog['handler'] | undefined
  const service = await startInPageService({
    provider: chain,
    artifacts: contracts as unknown as Parameters<typeof startInPageService>[0]['artifacts'],
    storage,
    webhookUrl: WEBHOOK_URL,
    deliver: async (url, init) =>
      onWebhook
        ? onWebhook(new Request(url, init))
        : new Response('The merchant is not up yet', { status: 503 }),
    log: (message) => console.info(`[service] ${message}`),
  })
  const serviceFetch: typeof globalThis.fetch = (input, init) =>
    service.handle(new Request(input, init))

  const client = createPaySessionClient({
    apiBase: SERVICE_URL,
    apiKey: service.apiKey,
    fetch: serviceFetch,
    // The page is the simulation: its "server" and the service it calls both live in this tab,
    // and the sandbox key opens nothing else.
    dangerouslyAllowBrowser: true,
  })
  const orders = createOrderStore({
    load: () => saved.orders,
    save: (all) => void db.put('orders', all).catch(failed('the orders')),
  })
  const webhooks = createWebhookLog({
    secret: service.webhookSecret,
    clock: service.clock,
    client,
    sessionTokenOf: (id) => orders.get(id)?.sessionToken,
    store: {
      load: () => saved.webhooks,
      append: (_entry, entries) =>
        void db.put('webhooks', entries).catch(failed('the webhook log')),
    },
  })
  onWebhook = webhooks.handler

  const renewSessionToken = sandboxTokenRenewal({
    apiBase: SERVICE_URL,
    apiKey: service.apiKey,
    fetch: serviceFetch,
  })

  return {
    durable: db.durable,
    serviceUrl: SERVICE_URL,
    webhookUrl: WEBHOOK_URL,
    client,
    sessions: createSessionReader({ client, orders, renewSessionToken }),
    orders,
    webhooks,
    webhookBacklog: () => service.webhookBacklog(),
    balances: createBalanceReader(custom(chain), tokens),
    treasury: service.treasury,
    wallet,
    fetch: serviceFetch,
    wagmiConfig: createConfig({
      chains: [chainDefinition],
      connectors: [injected()],
      transports: { [chainDefinition.id]: custom(chain) },
    }),
    renewSessionToken,
    describeError: (error) =>
      isPaySessionError(error)
        ? `${error.shortMessage} (${error.code})`
        : error instanceof Error
          ? error.message
          : String(error),
    async stop() {
      await service.stop()
      db.close()
    },
  }
}
