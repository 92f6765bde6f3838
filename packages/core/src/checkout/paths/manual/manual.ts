import type { PaymentPathEntry } from '../../handle.js'

/**
 * Paying by hand, from any wallet or exchange: the `manual` step shows the one-time wallet's
 * address, the amount and an EIP-681 QR code, and the session is followed (polled fast) until
 * the transfer arrives. Offered from every step that offers the payment; nothing to load in core.
 */
export const manual: PaymentPathEntry = {
  name: 'manual',
  offered: () => true,
  run: (handle) => {
    if (handle.dispatch({ type: 'manual' }, { error: undefined, canRetry: false }))
      handle.session.refresh()
  },
  view: 'manual',
  pollsFast: true,
}
