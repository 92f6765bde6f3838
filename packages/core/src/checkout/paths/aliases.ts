import type { PayOptions } from './index.js'

/**
 * The checkout's methods that name a path, kept for pages that call them: each is `pay()` with
 * its path. `CheckoutSession` inherits them, so that it names no path itself.
 */
export abstract class PathAliases {
  abstract pay(options?: PayOptions): Promise<void>

  /** The manual payment (`pay({ path: 'manual' })`). */
  payManually(): void {
    void this.pay({ path: 'manual' })
  }
}
