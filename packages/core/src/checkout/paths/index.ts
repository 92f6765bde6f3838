import type { PathFlag, PathOffer, PaymentPathEntry, Recovery } from '../handle.js'
import type { CheckoutStep } from '../types.js'
import { type CallsModule, calls } from './calls/calls.js'
import { type GaslessModule, gasless } from './gasless/gasless.js'
import { manual } from './manual/manual.js'
import { wallet } from './wallet/wallet.js'

// The table of payment paths, looked up by name: each path's folder says when it is offered,
// what it loads, how it runs and which view shows it. Adding a path: its folder, its row here
// (with its module's type in `PathModules` when its code loads lazily, and that code's export in
// ../everyPath.ts), and its words in the widget.

/** Every way to pay, by name (`pay({ path })`). */
export const paymentPaths = { wallet, calls, gasless, manual } satisfies Record<
  string,
  PaymentPathEntry
>

/** The code of each path that loads lazily, by the path's name. */
type PathModules = { calls: CallsModule; gasless: GaslessModule }

/** A way to pay, by name: `wallet` (the default), `gasless` (needs `relayUrl`), `manual`... */
export type PaymentPath = keyof typeof paymentPaths

/** What `pay()` takes when no path, or one the checkout does not offer, is asked for. */
export const defaultPath: PaymentPath = 'wallet'

export type PayOptions = {
  /** The way to pay; default `wallet`. A path the state does not offer is the default's. */
  path?: PaymentPath | undefined
}

/**
 * The checkout's code off the usual payment, each a module the session loads when a customer
 * takes it: `@paysession/core/recovery` (a payment left in flight, a refused token) and each lazy
 * path's (`@paysession/core/gasless`, `@paysession/core/calls`). `createCheckout` passes them
 * all, bundled; the widget loads them lazily, together (`pathsFrom`). A path that cannot load
 * ends the attempt with an error; `retry()` loads it again.
 */
export type CheckoutPaths = { recovery: () => Promise<Recovery> } & {
  [Name in keyof PathModules]?: (() => Promise<PathModules[Name]>) | undefined
}

type Both<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never

/** What a module holding every path offers (`@paysession/core/paths`). */
export type EveryPath = Recovery & Both<PathModules[keyof PathModules]>

const entries: PaymentPathEntry[] = Object.values(paymentPaths)

/**
 * Every path from one module that holds them all, loaded once, when a customer first takes one.
 * @example const paths = pathsFrom(() => import('@paysession/core/paths'))
 */
export function pathsFrom(load: () => Promise<EveryPath>): CheckoutPaths {
  const lazy = entries.filter((entry) => entry.lazy).map((entry) => [entry.name, load])
  return { recovery: load, ...Object.fromEntries(lazy) }
}

/** The state's flags of the paths that depend on the token (`gasless`), for one token. */
export const pathFlags = (offer: PathOffer) =>
  Object.fromEntries(
    entries.flatMap((entry) => (entry.flag ? [[entry.flag, entry.offered(offer)]] : [])),
  ) as Record<PathFlag, boolean>

/** The steps that are a path's own (the manual payment's), polled as fast as a payment. */
export const fastSteps: readonly CheckoutStep[] = entries.flatMap((entry) =>
  entry.pollsFast ? [entry.view] : [],
)

/** What each path checks of the page's settings when a checkout starts. */
export function checkSettings(settings: Parameters<NonNullable<PaymentPathEntry['check']>>[0]) {
  for (const entry of entries) entry.check?.(settings)
}
