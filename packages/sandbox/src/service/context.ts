import type { Address } from 'viem'
import type { HDKey } from 'viem/accounts'
import type { ChainClients } from '../chain/clients.js'
import type { SandboxClock } from '../clock.js'
import type { Profile } from '../http/profile.js'
import { randomId } from './crypto.js'
import type { Storage } from './storage.js'

export interface ServiceOptions {
  apiKey: string
  merchantId: string
  fundingWindowSeconds: number
  tokenTtlSeconds: number
  amountDecimals: number | undefined
  webhookUrl: string | undefined
  webhookSecret: string | undefined
  /** Attempts before a delivery is given up; default no limit (the retry window decides). */
  webhookMaxAttempts: number
  /** First retry delay; each next one doubles, up to webhookMaxRetryDelay. */
  webhookRetryDelay: number
  webhookMaxRetryDelay: number
  /** How long after the update a failing delivery is still retried. */
  webhookRetryHours: number
  webhookRequestTimeout: number
  interval: number
  waitTimeout: number
  /** How lean the answers are (see http/profile.ts). */
  profile: Profile
}

/** A new merchant API key: each data folder (or in-memory service) has its own. */
export const newApiKey = () => randomId('sk_sandbox_', 24)

/** Every option, with the defaults both adapters use for those not given. */
export function serviceOptions(
  given: Partial<ServiceOptions> & Pick<ServiceOptions, 'apiKey' | 'webhookSecret'>,
): ServiceOptions {
  return {
    apiKey: given.apiKey,
    merchantId: given.merchantId ?? 'merchant_sandbox',
    fundingWindowSeconds: given.fundingWindowSeconds ?? 24 * 60 * 60,
    tokenTtlSeconds: given.tokenTtlSeconds ?? 60 * 60,
    amountDecimals: given.amountDecimals,
    webhookUrl: given.webhookUrl,
    webhookSecret: given.webhookSecret,
    webhookMaxAttempts: given.webhookMaxAttempts ?? Number.POSITIVE_INFINITY,
    webhookRetryDelay: given.webhookRetryDelay ?? 500,
    webhookMaxRetryDelay: given.webhookMaxRetryDelay ?? 5 * 60_000,
    webhookRetryHours: given.webhookRetryHours ?? 24,
    webhookRequestTimeout: given.webhookRequestTimeout ?? 5000,
    interval: given.interval ?? 200,
    waitTimeout: given.waitTimeout ?? 30_000,
    profile: given.profile ?? 'default',
  }
}

/** Everything the service's parts share. Built once by startSandbox. */
export interface Context {
  db: Storage
  clock: SandboxClock
  chain: ChainClients
  options: ServiceOptions
  hd: HDKey
  treasury: Address
  /** Sends a webhook: `fetch` in Node; an in-page adapter can answer it in the page. */
  deliver: (url: string, init: RequestInit) => Promise<Response>
  log: (message: string) => void
  /** Logs a repeating problem at most once per interval per key (with how often it recurred). */
  logEvery: (key: string, message: string) => void
  /** Resolves once the chain state up to the current head is saved (a no-op without a data folder). */
  durable: () => Promise<void>
  /** Whether anvil is up; false while it is being restarted or after it could not be. */
  chainUp: () => boolean
  /** Counts anvil (re)starts: work begun on an earlier chain is re-checked, not waited for. */
  chainEpoch: () => number
  /** Test-only pauses (PAYSESSION_TEST_PAUSE_AT): lets crash tests kill the process at a chosen moment. */
  testHooks: { afterRecord?: (purpose: string) => Promise<void> }
  /** Per one-time wallet, the tail of its queue of on-chain jobs (see inLane). */
  lanes: Map<number, Promise<unknown>>
  runningCaptures: Set<string>
  /** The facts a merchant needs (GET /sandbox/info). */
  info: () => Record<string, unknown>
  /** What GET /health reports: is the chain running, is its state being saved. */
  health: () => { ok: boolean } & Record<string, unknown>
  /** Called after any state change that background workers should act on. */
  wake: () => void
}
