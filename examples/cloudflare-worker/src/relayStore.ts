import type { AcceptedNonce, RelayRecord, RelayStore } from '@paysession/server/relay'
import { sameRecord } from '@paysession/server/relay'

// The few Workers types used here (no @cloudflare/workers-types needed).
type Storage = {
  get<T>(key: string): Promise<T | undefined>
  put(key: string, value: unknown): Promise<void>
  delete(key: string): Promise<boolean>
}
export type DurableObjectNamespace = {
  idFromName(name: string): unknown
  get(id: unknown): { fetch(url: string, init: RequestInit): Promise<Response> }
}

type Call =
  | { op: 'get'; sessionId: string }
  | { op: 'claim'; sessionId: string; record: RelayRecord; replacing?: RelayRecord }
  | { op: 'set'; sessionId: string; record: RelayRecord }
  | { op: 'release'; sessionId: string; record: RelayRecord }
  | { op: 'lock'; key: string; holder: string }
  | { op: 'held'; key: string; holder: string }
  | { op: 'unlock'; key: string; holder: string; accepted?: AcceptedNonce }

// Longer than a send takes; a lock whose Worker died ends after it.
const lockMs = 30_000

/**
 * The relay's shared store on Workers: one Durable Object, whose requests run one at a time, so
 * each call below is atomic (a claim compares and sets; a lock is taken by one holder). Bind it
 * as `RELAY_STORE` (wrangler.toml) and export this class from the Worker.
 */
export class RelayStoreObject {
  constructor(private readonly state: { storage: Storage }) {}

  async fetch(request: Request): Promise<Response> {
    const call = (await request.json()) as Call
    const storage = this.state.storage
    const answer = (value: unknown) => Response.json({ value: value ?? null })
    switch (call.op) {
      case 'get':
        return answer(await storage.get(`claim:${call.sessionId}`))
      case 'claim': {
        const current = await storage.get<RelayRecord>(`claim:${call.sessionId}`)
        if (!sameRecord(current, call.replacing)) return answer(false)
        await storage.put(`claim:${call.sessionId}`, call.record)
        return answer(true)
      }
      case 'set':
        return answer(await storage.put(`claim:${call.sessionId}`, call.record))
      case 'release': {
        const current = await storage.get<RelayRecord>(`claim:${call.sessionId}`)
        if (sameRecord(current, call.record)) await storage.delete(`claim:${call.sessionId}`)
        return answer(null)
      }
      case 'lock': {
        const held = await storage.get<{ holder: string; until: number }>(`lock:${call.key}`)
        if (held && held.until > Date.now()) return answer(null)
        await storage.put(`lock:${call.key}`, { holder: call.holder, until: Date.now() + lockMs })
        return answer({ last: await storage.get<AcceptedNonce>(`nonce:${call.key}`) })
      }
      case 'held': {
        // The fence before a send: only a holder within its lease goes on (and keeps it).
        const held = await storage.get<{ holder: string; until: number }>(`lock:${call.key}`)
        if (held?.holder !== call.holder || held.until <= Date.now()) return answer(false)
        await storage.put(`lock:${call.key}`, { holder: call.holder, until: Date.now() + lockMs })
        return answer(true)
      }
      case 'unlock': {
        const held = await storage.get<{ holder: string }>(`lock:${call.key}`)
        if (held?.holder !== call.holder) return answer(null)
        if (call.accepted) await storage.put(`nonce:${call.key}`, call.accepted)
        await storage.delete(`lock:${call.key}`)
        return answer(null)
      }
    }
  }
}

/** The relay store over the `RelayStoreObject` Durable Object: one object for the whole shop. */
export function durableObjectRelayStore(namespace: DurableObjectNamespace): RelayStore {
  const object = () => namespace.get(namespace.idFromName('relay'))
  async function call<T>(body: Call): Promise<T> {
    const response = await object().fetch('https://relay-store/', {
      method: 'POST',
      body: JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`relay store answered ${response.status}`)
    return ((await response.json()) as { value: T }).value
  }
  return {
    get: async (sessionId) =>
      (await call<RelayRecord | null>({ op: 'get', sessionId })) ?? undefined,
    claim: (sessionId, record, replacing) => call({ op: 'claim', sessionId, record, replacing }),
    set: (sessionId, record) => call({ op: 'set', sessionId, record }),
    release: (sessionId, record) => call({ op: 'release', sessionId, record }),
    async withNonce(key, send) {
      const holder = crypto.randomUUID()
      const lock = () => call<{ last?: AcceptedNonce } | null>({ op: 'lock', key, holder })
      let granted = await lock()
      for (let wait = 2; !granted; wait = Math.min(wait * 2, 50)) {
        await new Promise((resolve) => setTimeout(resolve, wait * (0.5 + Math.random())))
        granted = await lock()
      }
      let accepted: AcceptedNonce | undefined
      try {
        const { nonce, result } = await send(granted.last ?? undefined, async () => {
          if (!(await call<boolean>({ op: 'held', key, holder })))
            throw new Error('the relayer nonce lock was lost: nothing was sent')
        })
        accepted = { nonce, at: Date.now() }
        return result
      } finally {
        await call({ op: 'unlock', key, holder, accepted })
      }
    },
  }
}
