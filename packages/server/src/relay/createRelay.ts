import { createNetworks } from './networks.js'
import { type RelayOptions, type ResolvedRelayOptions, resolveRelayOptions } from './options.js'
import type { RelayRequest } from './parseRequest.js'
import { createSender } from './send.js'
import { type SettleReturnType, settle } from './settle.js'

export type Relay = {
  /** The options as checked, with their defaults. */
  options: ResolvedRelayOptions
  /**
   * Applies every relay rule to a parsed, signed authorization for a session and sends it (see
   * `settle`). Throws a `PaySessionError` whose `code` and `status` are the relay's answer.
   * @example const { transactionHash } = await relay.settle({ sessionId, token: 'USDC', authorization, signature })
   */
  settle(request: RelayRequest): Promise<SettleReturnType>
}

/**
 * The relay's rules without HTTP, for a handler of another shape (x402, a queue consumer): the
 * options are checked here, once. `createRelayHandler` is this behind a `Request` → `Response`.
 * @example
 * const relay = createRelay({ client, relayer, networks, store: createPostgresRelayStore(sql) })
 * const { sessionId, transactionHash } = await relay.settle({ sessionId, token, authorization, signature })
 */
export function createRelay(options: RelayOptions): Relay {
  const resolved = resolveRelayOptions(options)
  const locks = new Map<string, Promise<unknown>>()
  async function exclusively<T>(key: string, work: () => Promise<T>): Promise<T> {
    const run = (locks.get(key) ?? Promise.resolve()).catch(() => undefined).then(work)
    locks.set(key, run)
    try {
      return await run
    } finally {
      if (locks.get(key) === run) locks.delete(key)
    }
  }
  const context = {
    options: resolved,
    networkOf: createNetworks(resolved),
    send: createSender(resolved),
    exclusively,
  }
  return { options: resolved, settle: (request) => settle(context, request) }
}
