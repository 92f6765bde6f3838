import type { Hex } from 'viem'
import type { PreviousPayment } from '../actions/checkPreviousPayment.js'
import type { PaymentSession } from '../api/session.js'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { PaySessionError } from '../errors/base.js'
import type { NetworkInfo, StablecoinInfo } from '../registry/types.js'
import type { ExpectedPayment } from '../utils/expectedPayment.js'
import type { PaymentRecord } from '../utils/paymentRecord.js'
import type { SessionToken, SessionTokenProvider } from './sessionToken.js'
import type { CheckoutEvent } from './transition.js'
import type { CheckoutState, CheckoutStep, CheckoutToken } from './types.js'

// What a payment path (paths/<name>/) and the recovery module get of the checkout session, and
// what a path says of itself: the session hands them its handle and keeps the rest private.

/** Everything the state holds but the step, which is the machine's. */
export type CheckoutFacts = Omit<CheckoutState, 'step'>

export type CheckoutListener = (state: CheckoutState) => void

/** What a page sets for one checkout: `CheckoutSessionParameters` but the paths' code. */
export type CheckoutSettings = {
  sessionId: string
  sessionToken: string
  /**
   * Asked for a fresh session token when the service refuses the current one (expired or not
   * valid), e.g. from your server. Resolve to undefined when there is none: the checkout then
   * follows the payment on chain. An expired token never shows as an expired payment.
   */
  getSessionToken?: SessionTokenProvider | undefined
  /** Locale for formatted balances. */
  locale?: string | undefined
  /** See `checkPreviousPayment`. */
  staleAfter?: number | undefined
  /**
   * The merchant's relay for payments without network fees (EIP-3009). With it, a token that
   * supports EIP-3009 can be paid by signing: `pay({ path: 'gasless' })`. https (plain http only
   * to this machine; a relative URL resolves against the page), or `INVALID_CONFIG`.
   */
  relayUrl?: string | undefined
  /**
   * The session as the page read it moments ago (the widget's button reads it before the
   * checkout's code has loaded): the first load starts from it instead of reading it again, when
   * it is this session's and no older than `polling.interval`. Polling reads it afresh at once.
   */
  initialSession?: PaymentSession | undefined
  /** When `initialSession` was read (ms since the epoch, by `polling.clock`). */
  initialSessionUpdatedAt?: number | undefined
} & ExpectedPayment

/** The checkout session as a path's code sees it (`CheckoutSession` is one). */
export interface CheckoutSessionView {
  readonly config: PaySessionConfig
  readonly sessionId: string
  readonly staleAfter: number | undefined
  readonly token: SessionToken
  /** Aborted when the checkout is destroyed: stops following a hash or the chain. */
  readonly signal: AbortSignal
  readonly settled: boolean
  readonly destroyed: boolean
  /** The session's network (known once loaded). */
  readonly network: NetworkInfo
  getState(): CheckoutState
  subscribe(listener: CheckoutListener): () => void
  explorerTxUrl(hash: Hex): string | undefined
  offerPayment(): Promise<void>
  askServiceToSettle(hash: Hex): Promise<void>
  fail(error: PaySessionError, canRetry: boolean): void
  stopWatching(): void
  refresh(): void
}

/**
 * What a path's code (`paths/<name>/`, `recovery.ts`) may do with the session it works on: read
 * its state, move its machine (`dispatch`), set its facts, and run its effects. The session hands
 * it over when it runs a path and keeps these private otherwise.
 */
export type CheckoutHandle = {
  /** The session itself: its state, token, polling and effects. */
  readonly session: CheckoutSessionView
  /** What the page set for this checkout. */
  readonly settings: Readonly<CheckoutSettings>
  /** The one way the step changes: the event through `transition`. Returns whether it was taken. */
  dispatch(event: CheckoutEvent, patch?: Partial<CheckoutFacts>): boolean
  /** Whether the machine would take the event now (checked before an effect that precedes it). */
  allows(event: CheckoutEvent): boolean
  /** Everything but the step. */
  set(patch: Partial<CheckoutFacts>): void
  /** The session read afresh (a refused token renewed once) and taken into the state. */
  readSession(): Promise<PaymentSession>
  /** A payment found in flight: followed to its end (the recovery module) instead of another. */
  resume(previous: PreviousPayment): Promise<void>
  /** Runs a recovery path once its module is loaded; one that cannot load ends the attempt. */
  recover(path: (recovery: Recovery) => unknown, error: PaySessionError): void
  /** The connected wallet's balances read again, and the token choice offered. */
  loadTokens(): Promise<unknown>
  /** The session's network and stablecoins (known once loaded). */
  assets(): { network: NetworkInfo; tokens: StablecoinInfo[] } | undefined
  /** What decides whether a path is offered, for the token `symbol`. */
  offer(symbol: string | undefined): PathOffer
  /** The loader of a path's code (`CheckoutPaths`), when the page gave one. */
  module<M>(name: string): (() => Promise<M>) | undefined
}

/** What `@paysession/core/recovery` does with a session, through its handle (see ./recovery.ts). */
export type Recovery = {
  resume(session: CheckoutHandle, previous: PreviousPayment): Promise<void> | void
  waitForPrompt(session: CheckoutHandle, record: PaymentRecord | undefined): Promise<void>
  untrack(session: CheckoutHandle, error: PaySessionError): void
}

/** A flag of the state that says whether the selected token, and each token, offers a path. */
export type PathFlag = {
  [K in keyof CheckoutState & keyof CheckoutToken]: CheckoutState[K] extends boolean ? K : never
}[keyof CheckoutState & keyof CheckoutToken]

/** What decides whether a path is offered: the page's settings, the paths' code, the token. */
export type PathOffer = {
  settings: Readonly<CheckoutSettings>
  /** Whether the page gave the loader of a path's code (`CheckoutPaths`). */
  loads(name: string): boolean
  /** The token it would pay (the selected one, or one of the list). */
  token: StablecoinInfo | undefined
}

/**
 * A way to pay, as the table of paths (./paths/index.ts) holds it: when it is offered, what it
 * loads, how it runs, and which view shows it.
 */
export type PaymentPathEntry = {
  name: string
  /** Whether the checkout offers it now; `pay({ path })` takes the default path otherwise. */
  offered(offer: PathOffer): boolean
  /** The state's flag that says which tokens offer it, when that depends on the token. */
  flag?: PathFlag | undefined
  /** Its code loads the first time a customer takes it: the `CheckoutPaths` loader of its name. */
  lazy?: boolean | undefined
  /** What it checks of the page's settings when a checkout starts (throws `INVALID_CONFIG`). */
  check?: ((settings: CheckoutSettings) => void) | undefined
  /** Pays, or shows how to, through the session's handle; none: never taken by name. */
  run?: ((handle: CheckoutHandle) => Promise<void> | void) | undefined
  /** The step whose view shows it: a button there, or the step itself. */
  view: CheckoutStep
  /** While its own step shows, the session is polled as fast as during a payment. */
  pollsFast?: boolean | undefined
}

/** Any failure as the SDK's error (a wallet's own error kept as `cause`). */
export const asError = (error: unknown): PaySessionError =>
  error instanceof PaySessionError ? error : new PaySessionError('WALLET_ERROR', { cause: error })
