/**
 * Remembers which deliveries were handled, by {@link dedupeKey}. Implement it over Redis or a
 * database table to deduplicate across processes; `has` and `add` may be async.
 */
export type WebhookDedupeStore = {
  has(id: string): boolean | Promise<boolean>
  add(id: string): void | Promise<void>
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
  return {
    has(id) {
      if (!seen.has(id)) return false
      // Refresh recency: a delivery retried late stays remembered.
      seen.delete(id)
      seen.set(id, true)
      return true
    },
    add(id) {
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
