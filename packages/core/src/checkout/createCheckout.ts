import type { PaySessionConfig } from '../createPaySessionConfig.js'
import type { Checkout, CheckoutSessionParameters } from './Checkout.js'
import { CheckoutSession } from './CheckoutSession.js'
import * as everyPath from './everyPath.js'
import { type CheckoutPaths, pathsFrom } from './paths/index.js'

export type CreateCheckoutParameters = Omit<CheckoutSessionParameters, 'paths'> & {
  /** The rarer paths' code; default: all of it, bundled with this call. */
  paths?: CheckoutPaths | undefined
}

/** Every path of the checkout, in this bundle (the widget passes lazy loaders instead). */
export const bundledPaths: CheckoutPaths = pathsFrom(async () => everyPath)

/**
 * The checkout a UI renders (a `CheckoutSession`): loading → chooseWallet → connecting →
 * chooseToken → review → confirmInWallet → submitted → confirming → waitingForService → paid →
 * completed, plus expired, failed, manual and untracked. Subscribe for state; call the methods on
 * user actions. To load the rarer paths lazily, pass `paths` (see `CheckoutPaths`).
 * @example
 * const checkout = createCheckout(config, { sessionId, sessionToken })
 * checkout.subscribe((state) => render(state))
 */
export function createCheckout(
  config: PaySessionConfig,
  parameters: CreateCheckoutParameters,
): Checkout {
  return new CheckoutSession(config, { ...parameters, paths: parameters.paths ?? bundledPaths })
}
