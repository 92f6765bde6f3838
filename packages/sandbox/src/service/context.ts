import type { Address } from 'viem'
import type { HDKey } from 'viem/accounts'
import type { ChainClients } from '../chain/clients.js'
import type { Clock } from '../clock.js'
import type { Db } from '../db.js'
import type { Profile } from '../http/profile.js'

export interface ServiceOptions {
  apiKey: string
  merchantId: string
  fundingWindowSeconds: number
  tokenTtlSeconds: number
  webhookUrl: string | undefined
  webhookSecret: string | undefined
  webhookMaxAttempts: number
  webhookBaseDelayMs: number
  webhookTimeoutMs: number
  pollIntervalMs: number
  waitTimeoutMs: number
  /** How lean the answers are (see http/profile.ts). */
  profile: Profile
}

/** Everything the service's parts share. Built once by startSandbox. */
export interface Context {
  db: Db
  clock: Clock
  chain: ChainClients
  options: ServiceOptions
  hd: HDKey
  treasury: Address
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
