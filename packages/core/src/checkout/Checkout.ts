import type { CheckoutListener, CheckoutSettings } from './handle.js'
import type { CheckoutPaths, PayOptions } from './paths/index.js'
import type { CheckoutState } from './types.js'

/** What a UI does with a checkout: read and subscribe to its state, act on the customer's clicks. */
export type Checkout = {
  getState(): CheckoutState
  subscribe(listener: CheckoutListener): () => void
  connect(walletId?: string): Promise<void>
  disconnect(): Promise<void>
  selectToken(symbol: string): void
  /** Pays the selected token by the chosen path (`pay({ path: 'gasless' })`). */
  pay(options?: PayOptions): Promise<void>
  /** `pay({ path: 'manual' })`. */
  payManually(): void
  retry(): Promise<void>
  destroy(): void
}

export type CheckoutSessionParameters = CheckoutSettings & {
  /** The code of the paths off the usual payment (`pathsFrom`, or `bundledPaths`). */
  paths: CheckoutPaths
}
