import type { SendWithCalls } from '../../../actions/sendWithCalls.js'
import type { CheckoutHandle, PaymentPathEntry } from '../../handle.js'

/** What the calls path loads (`@paysession/core/calls`, or every path's module). */
export type CallsModule = { sendWithCalls: SendWithCalls }

/**
 * The smart-wallet calls (EIP-5792): the wallet's transfer as a one-call bundle, for a wallet that
 * reports capabilities on the session's chain. Never taken by name: the wallet path sends through
 * it (`callsSender`) when the page gave its code, which loads the first time such a wallet pays.
 */
export const calls: PaymentPathEntry = {
  name: 'calls',
  offered: () => false,
  lazy: true,
  view: 'confirmInWallet',
}

/** `payWithWallet`'s `sendCalls`: the calls path's code, loaded when first used. */
export function callsSender(handle: CheckoutHandle): SendWithCalls | undefined {
  const load = handle.module<CallsModule>(calls.name)
  return load && (async (...args) => (await load()).sendWithCalls(...args))
}
