import { checkUrl } from '@paysession/protocol'
import type { payWithAuthorization } from '../../../actions/payWithAuthorization.js'
import type { PaymentPathEntry } from '../../handle.js'
import { transferAttempt } from '../../transferAttempt.js'

/** What the gasless path loads (`@paysession/core/gasless`, or every path's module). */
export type GaslessModule = { payWithAuthorization: typeof payWithAuthorization }

/**
 * Paying without network fees: the customer signs an EIP-3009 authorization that the merchant's
 * relay submits (`payWithAuthorization`). Offered with a relay (`relayUrl`), its code, and a
 * token that supports EIP-3009 (`state.gasless`, `token.gasless`); its code loads on click.
 */
export const gasless: PaymentPathEntry = {
  name: 'gasless',
  offered: ({ settings, loads, token }) =>
    !!settings.relayUrl && loads(gasless.name) && !!token?.eip3009,
  flag: 'gasless',
  lazy: true,
  check: ({ relayUrl }) => {
    if (relayUrl) checkUrl(relayUrl, 'relayUrl', true)
  },
  run: (handle) =>
    transferAttempt(handle, gasless.name, async (config, parameters) => {
      const { payWithAuthorization } = await handle.module<GaslessModule>(gasless.name)!()
      return payWithAuthorization(config, { ...parameters, relayUrl: handle.settings.relayUrl! })
    }),
  view: 'review',
}
