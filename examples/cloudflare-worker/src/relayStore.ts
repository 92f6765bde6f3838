import type { RelayStore } from '@paysession/server/relay'

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
  | { op: 'get'; key: string }
  | { op: 'compareAndSet'; key: string; value?: string; expected?: string }

/**
 * The relay's shared store on Workers: one Durable Object, whose requests run one at a time, so
 * each compare-and-set below is atomic. Bind it as `RELAY_STORE` (wrangler.toml) and export this
 * class from the Worker.
 */
export class RelayStoreObject {
  constructor(private readonly state: { storage: Storage }) {}

  async fetch(request: Request): Promise<Response> {
    const call = (await request.json()) as Call
    const storage = this.state.storage
    const current = await storage.get<string>(call.key)
    if (call.op === 'get') return Response.json({ value: current ?? null })
    if (current !== call.expected) return Response.json({ value: false })
    if (call.value === undefined) await storage.delete(call.key)
    else await storage.put(call.key, call.value)
    return Response.json({ value: true })
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
    get: async (key) => (await call<string | null>({ op: 'get', key })) ?? undefined,
    compareAndSet: (key, value, expected) => call({ op: 'compareAndSet', key, value, expected }),
  }
}
