import type { Clock } from '@paysession/protocol'
import type { Hex } from 'viem'
import type { PaymentSession } from '../../client/types.js'
import type { LatestBlock } from '../chainChecks.js'
import type { Network, TokenInfo } from '../networks.js'
import type { Payment } from '../parseRequest.js'
import type { RelayRecord, RelayStore } from '../types.js'

/** What a sender is given for one payment, once every rule before the claim has passed. */
export type SendContext<P extends Payment = Payment> = {
  payment: P
  session: PaymentSession
  network: Network
  token: TokenInfo
  block: LatestBlock
  store: RelayStore
  clock: Clock
}

/**
 * Who sends a claimed payment: the merchant's relayer (its keys, its nonces) or an x402
 * facilitator. The settlement pipeline (`settle.ts`) runs every rule and the claim; a sender adds
 * only its own checks and the send.
 */
export type Sender<Prepared = unknown, P extends Payment = Payment> = {
  /** Its own checks before the claim (nothing leaves): throws the relay's refusal. */
  prepare(context: SendContext<P>): Promise<Prepared>
  /**
   * Sends once. `mark` writes what the claim must know before anything leaves (the relayer's
   * nonce, hash and signed bytes; the facilitator's name); it throws when the claim was taken
   * over, and then nothing is sent. Resolves the transaction's hash. A failure known to have
   * sent nothing is thrown through `notSent`.
   */
  send(
    context: SendContext<P>,
    prepared: Prepared,
    mark: (fields: Partial<RelayRecord>) => Promise<void>,
  ): Promise<Hex>
}

const unsent = new WeakSet<object>()

/** Marks a sender's failure as one that sent nothing, so the session stays payable. */
export function notSent<E>(error: E): E {
  if (typeof error === 'object' && error !== null) unsent.add(error)
  return error
}

export function wasNotSent(error: unknown): boolean {
  return typeof error === 'object' && error !== null && unsent.has(error)
}
