import { createNetworks } from './networks.js'
import { type RelayOptions, type ResolvedRelayOptions, resolveRelayOptions } from './options.js'
import type { Payment, RelayRequest } from './parseRequest.js'
import { relayerSender } from './senders/relayer.js'
import type { Sender } from './senders/sender.js'
import { createKeyedQueue, type SettleReturnType, settle } from './settle.js'

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
 * The settlement pipeline with its options checked once, for any route and sender: the relay's
 * relayer, or (x402) a facilitator.
 */
export function createSettlement<P extends Payment = Payment>(
  options: Parameters<typeof resolveRelayOptions>[0],
  senderOf: (resolved: ResolvedRelayOptions) => Sender<unknown, P>,
  { withoutRelayer = false } = {},
) {
  const resolved = resolveRelayOptions(options, { withoutRelayer })
  const context = {
    options: resolved,
    networkOf: createNetworks(resolved),
    exclusively: createKeyedQueue(),
  }
  const sender = senderOf(resolved)
  return {
    options: resolved,
    networkOf: context.networkOf,
    settle: (payment: P) => settle(context, payment, sender),
  }
}

/**
 * The relay's rules without HTTP, for a handler of another shape (a queue consumer):
 * `createRelayHandler` is this behind a `Request` → `Response`.
 * @example
 * const relay = createRelay({ client, relayer, networks, store: createPostgresRelayStore(sql) })
 * const { sessionId, transactionHash } = await relay.settle({ sessionId, token, authorization, signature })
 */
export function createRelay(options: RelayOptions): Relay {
  const settlement = createSettlement(options, relayerSender as (o: ResolvedRelayOptions) => Sender)
  return { options: settlement.options, settle: settlement.settle }
}
