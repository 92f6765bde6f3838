import { systemClock } from '@paysession/protocol'

/** What `claim` found: the delivery is now this caller's, another's for now, or handled. */
export type DedupeClaim = 'claimed' | 'handling' | 'handled'

/**
 * Remembers which deliveries were handled, by {@link dedupeKey}; several instances share one
 * (`createPostgresDedupeStore`, `createRedisDedupeStore`). Any of these may be async.
 */
export type WebhookDedupeStore = {
  has(id: string): boolean | Promise<boolean>
  /** Marks the delivery handled. */
  add(id: string): void | Promise<void>
  /**
   * Atomically takes the delivery for handling by `holder` for `leaseMs`, unless it was handled
   * or another holder's lease runs: so one delivery is handled once even when two instances
   * receive it at once, and again after a holder that died. Without it, `has` then `add`, which
   * holds in one process only.
   */
  claim?(id: string, holder: string, leaseMs: number): DedupeClaim | Promise<DedupeClaim>
  /** Gives back `holder`'s lease on a delivery that failed, so a retry may handle it. */
  release?(id: string, holder: string): void | Promise<void>
}

/**
 * The key a delivery is remembered by: its JSON-RPC `id` as JSON, so the number `1` and the
 * string `"1"` (two different ids) are two keys.
 * @example dedupeKey(1) // '1'; dedupeKey('1') // '"1"'
 */
export function dedupeKey(id: string | number): string {
  return JSON.stringify(id)
}

/**
 * An in-memory store that keeps the most recently handled `max` ids (LRU).
 * It forgets on restart and is per process.
 *
 * @example
 * createWebhookHandler({ onEvent, dedupe: createMemoryDedupeStore({ max: 50_000 }) })
 */
export function createMemoryDedupeStore({
  max = 10_000,
}: {
  max?: number
} = {}): WebhookDedupeStore & {
  readonly size: number
} {
  const seen = new Map<string, true>()
  const leases = new Map<string, { holder: string; until: number }>()
  return {
    claim(id, holder, leaseMs) {
      if (seen.has(id)) return 'handled'
      const lease = leases.get(id)
      if (lease && lease.until > systemClock.now()) return 'handling'
      leases.set(id, { holder, until: systemClock.now() + leaseMs })
      return 'claimed'
    },
    release(id, holder) {
      if (leases.get(id)?.holder === holder) leases.delete(id)
    },
    has(id) {
      if (!seen.has(id)) return false
      // Refresh recency: a delivery retried late stays remembered.
      seen.delete(id)
      seen.set(id, true)
      return true
    },
    add(id) {
      leases.delete(id)
      seen.delete(id)
      seen.set(id, true)
      while (seen.size > max) {
        const oldest = seen.keys().next().value as string
        seen.delete(oldest)
      }
    },
    get size() {
      return seen.size
    },
  }
}
