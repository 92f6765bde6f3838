import type { Address } from 'viem'
import type { HDKey } from 'viem/accounts'
import type { ChainClients } from '../chain/clients.js'
import type { SandboxClock } from '../clock.js'
import { handleRequest } from '../http/handler.js'
import { runCapture } from './captures.js'
import type { Context, ServiceOptions } from './context.js'
import { createFundingWatcher, createReturnWorker } from './funding.js'
import { createSettleWorker } from './otw.js'
import { expireDue } from './sessions.js'
import type { Storage } from './storage.js'
import { createWebhookWorker } from './webhooks.js'

// The service itself, with no platform in it: the rules live in this folder, and an adapter
// hands in storage, a chain, a clock and webhook delivery. The Node adapter (../index.ts)
// passes SQLite, anvil and fetch and serves `handle` on node:http; a browser adapter can pass
// an in-memory store and an EIP-1193 chain and answer `handle` in the page.

/** What an adapter provides. Optional parts default to a chain that is always up and state that needs no saving. */
export interface ServiceParts {
  storage: Storage
  /** viem clients over the chain: `http(anvil)` in Node, `custom(provider)` over any EIP-1193 provider. */
  chain: ChainClients
  clock: SandboxClock
  deliver: Context['deliver']
  /** HD key for one-time wallets (account 0) and the treasury (account 1). */
  hd: HDKey
  treasury: Address
  options: ServiceOptions
  log: (message: string) => void
  durable?: Context['durable']
  chainUp?: Context['chainUp']
  chainEpoch?: Context['chainEpoch']
  testHooks?: Context['testHooks']
  info?: Context['info']
  health?: Context['health']
  /** Runs at the end of each background pass while the chain is up (the Node adapter saves the chain state there). */
  afterPass?: () => Promise<void>
}

export interface Service {
  ctx: Context
  /** The API: `(Request) => Promise<Response>`; only the URL's path and query count. */
  handle(request: Request): Promise<Response>
  /** Starts the background work (chain scan, expiry, transfers, webhooks). */
  start(): void
  /** Runs a background pass soon. */
  wake(): void
  /** Stops the background work. */
  stop(): void
  /** Resolves once the on-chain jobs in flight are done: call before the chain goes away. */
  settle(): Promise<void>
}

/** Repeating problems (a dead node, a locked database) log one line per this interval. */
const LOG_INTERVAL_MS = 30_000

export function createService(parts: ServiceParts): Service {
  const { log, options } = parts
  const lastLogged = new Map<string, { at: number; repeats: number }>()
  const logEvery = (key: string, message: string) => {
    const seen = lastLogged.get(key)
    if (seen && parts.clock.now() - seen.at < LOG_INTERVAL_MS) {
      seen.repeats++
      return
    }
    const again = seen?.repeats ? ` (${seen.repeats} more times since the last report)` : ''
    lastLogged.set(key, { at: parts.clock.now(), repeats: 0 })
    log(`${key}: ${message.split('\n')[0]}${again}`)
  }
  const chainUp = parts.chainUp ?? (() => true)
  const ctx: Context = {
    db: parts.storage,
    clock: parts.clock,
    chain: parts.chain,
    options,
    hd: parts.hd,
    treasury: parts.treasury,
    deliver: parts.deliver,
    log,
    logEvery,
    lanes: new Map(),
    runningCaptures: new Set(),
    wake: () => schedule(0),
    durable: parts.durable ?? (() => Promise.resolve()),
    chainUp,
    chainEpoch: parts.chainEpoch ?? (() => 0),
    testHooks: parts.testHooks ?? {},
    info: parts.info ?? (() => ({})),
    health: parts.health ?? (() => ({ ok: chainUp() })),
  }

  // One background loop: scan the chain, expire, settle and resume transfers, deliver webhooks.
  // While a problem persists it backs off (up to 5 s) and logs one line per interval.
  const scan = createFundingWatcher(ctx)
  const deliver = createWebhookWorker(ctx)
  const returns = createReturnWorker(ctx)
  const settleLeftovers = createSettleWorker(ctx)
  let timer: unknown
  let running = false
  let started = false
  let stopped = false
  let failures = 0
  const tick = async () => {
    timer = undefined
    if (running || stopped) return
    running = true
    try {
      if (chainUp()) {
        await scan()
        expireDue(ctx)
        settleLeftovers()
        for (const c of ctx.db.captures.inFlight()) runCapture(ctx, c)
        await returns()
        await parts.afterPass?.()
      }
      void deliver().catch((e) => logEvery('webhook worker', String(e)))
      failures = 0
    } catch (e) {
      failures++
      logEvery('background', e instanceof Error ? e.message : String(e))
    } finally {
      running = false
      schedule(Math.min(options.interval * 2 ** Math.min(failures, 10), 5000))
    }
  }
  function schedule(ms: number) {
    if (stopped || !started) return
    if (timer !== undefined && ms > 0) return
    if (timer !== undefined) parts.clock.clearTimeout(timer)
    timer = parts.clock.setTimeout(() => void tick(), ms)
  }

  return {
    ctx,
    handle: (request) => handleRequest(ctx, request),
    start() {
      started = true
      schedule(0)
    },
    wake: () => schedule(0),
    stop() {
      stopped = true
      if (timer !== undefined) parts.clock.clearTimeout(timer)
    },
    async settle() {
      await Promise.allSettled([...ctx.lanes.values()])
    },
  }
}
