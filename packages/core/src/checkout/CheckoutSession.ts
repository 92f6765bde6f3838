import { watchConnection } from '@wagmi/core'
import type { Hex } from 'viem'
import { checkPreviousPayment, type PreviousPayment } from '../actions/checkPreviousPayment.js'
import { getSession } from '../actions/getSession.js'
import { getWallets, watchWallets } from '../actions/getWallets.js'
import { reportFunding } from '../actions/reportFunding.js'
import { sessionQueryKey, watchSession } from '../actions/watchSession.js'
import type { PaySessionConfig } from '../createPaySessionConfig.js'
import { isTokenRefused } from '../errors/api.js'
import { PaySessionError } from '../errors/base.js'
import { resolveSessionAssets } from '../registry/registry.js'
import type { NetworkInfo, StablecoinInfo } from '../registry/types.js'
import { checkExpectedPayment } from '../utils/expectedPayment.js'
import type { Checkout, CheckoutSessionParameters } from './Checkout.js'
import { connect, disconnect, flagsOf, loadTokens, offerPayment, selectToken } from './choice.js'
import {
  asError,
  type CheckoutFacts,
  type CheckoutHandle,
  type CheckoutListener,
  type CheckoutSessionView,
  type Recovery,
} from './handle.js'
import { PathAliases } from './paths/aliases.js'
import {
  checkSettings,
  defaultPath,
  fastSteps,
  type PaymentPath,
  type PayOptions,
  paymentPaths,
} from './paths/index.js'
import { initialSession, takeSession } from './sessionNews.js'
import { SessionToken } from './sessionToken.js'
import { isInFlight } from './steps.js'
import {
  type CheckoutEvent,
  type CheckoutMachine,
  initialMachine,
  retryAction,
  transition,
} from './transition.js'
import type { CheckoutState } from './types.js'

export type { Checkout, CheckoutSessionParameters }
export { asError }

/**
 * One customer's checkout of one session: it owns the session token (`token`), the transition
 * machine's state (the step is the machine's, nothing else's), the session's polling, and the
 * effects around them (wallet prompts, requests). Which step follows which event is `transition`
 * (./transition.ts); the session changes the step only through it (`dispatch`). How each way to
 * pay runs is its path's (./paths/): the session runs it with its handle. Subscribe for state;
 * call the methods on user actions. `createCheckout` builds one with every path bundled.
 * @example
 * const checkout = new CheckoutSession(config, { sessionId, sessionToken, paths })
 * checkout.subscribe((state) => render(state))
 */
export class CheckoutSession extends PathAliases implements Checkout, CheckoutSessionView {
  readonly config: PaySessionConfig
  readonly sessionId: string
  readonly staleAfter: number | undefined
  readonly token: SessionToken
  /** Aborted when the checkout is destroyed: stops following a hash or the chain. */
  readonly signal: AbortSignal
  #parameters: CheckoutSessionParameters
  #machine: CheckoutMachine<string> = initialMachine
  #facts: CheckoutFacts
  #state: CheckoutState
  #listeners = new Set<CheckoutListener>()
  #notifying = false
  #pending = false
  #destroyed = false
  /** What the paths' code gets to work on this session (see `CheckoutHandle`). */
  readonly #handle: CheckoutHandle
  #assets: { network: NetworkInfo; tokens: StablecoinInfo[] } | undefined
  #unwatch: (() => void) | undefined
  #following = new AbortController()
  #stopConnection: () => void
  #stopWallets: () => void

  constructor(config: PaySessionConfig, parameters: CheckoutSessionParameters) {
    super()
    checkSettings(parameters)
    this.config = config
    this.#parameters = parameters
    this.sessionId = parameters.sessionId
    this.staleAfter = parameters.staleAfter
    this.token = new SessionToken(parameters.sessionToken, parameters.getSessionToken)
    this.signal = this.#following.signal
    this.#handle = {
      session: this,
      settings: parameters,
      dispatch: (event, patch) => this.#dispatch(event, patch),
      allows: (event) => this.#allows(event),
      set: (patch) => this.#set(patch),
      readSession: async () => {
        const session = await this.#readSession()
        takeSession(this.#handle, session)
        return session
      },
      resume: (previous) => this.#resume(previous),
      recover: (path, error) => this.#recover(path, error),
      loadTokens: () => loadTokens(this.#handle),
      assets: () => this.#assets,
      offer: (symbol) => ({
        settings: parameters,
        loads: (name) => !!(parameters.paths as Record<string, unknown>)[name],
        token: this.#assets?.tokens.find((t) => t.symbol === symbol),
      }),
      module: <M>(name: string) =>
        (this.#parameters.paths as unknown as Record<string, (() => Promise<M>) | undefined>)[name],
    }
    this.#facts = {
      wallets: getWallets(config),
      tokens: [],
      gasWarning: false,
      canRetry: false,
      ...flagsOf(this.#handle, undefined),
    }
    this.#state = { ...this.#facts, step: this.#machine.step }
    this.#stopConnection = watchConnection(config.wagmiConfig, {
      onChange: (connection, previous) => {
        if (this.#destroyed || !this.#allows({ type: 'walletDisconnected' })) return
        if (connection.status === 'disconnected')
          this.#dispatch({ type: 'walletDisconnected' }, { account: undefined, tokens: [] })
        else if (connection.address !== previous.address || connection.chainId !== previous.chainId)
          void loadTokens(this.#handle).catch((error) => this.#set({ error: asError(error) }))
      },
    })
    this.#stopWallets = watchWallets(config, (wallets) => this.#set({ wallets }))
    void this.#load()
  }

  // State: the machine's step plus the facts around it, published to every listener in order.

  getState(): CheckoutState {
    return this.#state
  }

  subscribe(listener: CheckoutListener): () => void {
    this.#listeners.add(listener)
    return () => {
      this.#listeners.delete(listener)
    }
  }

  /** Paid, completed, expired, or the service's ERROR: only the service's news changes the step. */
  get settled(): boolean {
    return this.#machine.settled
  }

  get destroyed(): boolean {
    return this.#destroyed
  }

  /** The session's network (known once loaded). */
  get network(): NetworkInfo {
    return this.#assets!.network
  }

  /** Everything but the step, which changes only through `#dispatch`. */
  #set(patch: Partial<CheckoutFacts>): void {
    this.#publish(patch)
  }

  /**
   * The one way the step changes: the event through `transition`, with what else it brings.
   * An event the machine refuses changes nothing. Returns whether it was taken.
   */
  #dispatch(event: CheckoutEvent, patch: Partial<CheckoutFacts> = {}): boolean {
    const next = transition(this.#machine, event)
    if (next === this.#machine) return false
    const moved = next.step !== this.#machine.step
    this.#machine = next
    if (moved || Object.keys(patch).length) this.#publish(patch)
    return true
  }

  // A listener may call back into the session: its change is delivered after the current round,
  // so every listener sees the states in order and ends on the latest.
  #publish(patch: Partial<CheckoutFacts>) {
    if (this.#destroyed) return
    this.#facts = { ...this.#facts, ...patch }
    this.#state = { ...this.#facts, step: this.#machine.step }
    if (this.#notifying) {
      this.#pending = true
      return
    }
    this.#notifying = true
    try {
      do {
        this.#pending = false
        const snapshot = this.#state
        for (const listener of this.#listeners) listener(snapshot)
      } while (this.#pending)
    } finally {
      this.#notifying = false
    }
  }

  /** Whether the machine would take the event now (checked before an effect that precedes it). */
  #allows(event: CheckoutEvent) {
    return transition(this.#machine, event) !== this.#machine
  }

  explorerTxUrl(hash: Hex): string | undefined {
    const explorer = this.#assets?.network.explorerUrl
    return explorer ? `${explorer}/tx/${hash}` : undefined
  }

  /**
   * An error that ends this attempt: an expired session ends the checkout for good; a refused
   * token only ends what the service tells this page (`untrack` in ./recovery.ts).
   */
  fail(error: PaySessionError, canRetry: boolean): void {
    if (isTokenRefused(error)) {
      this.#recover((recovery) => recovery.untrack(this.#handle, error), error)
      return
    }
    const expired = error.code === 'SESSION_EXPIRED'
    this.#dispatch({ type: 'fail', expired }, { error, canRetry: !expired && canRetry })
  }

  /** Runs a recovery path once its module is loaded; one that cannot load ends the attempt. */
  #recover(path: (recovery: Recovery) => unknown, error: PaySessionError) {
    void this.#parameters.paths
      .recovery()
      .then(path, () => this.#dispatch({ type: 'fail', expired: false }, { error, canRetry: true }))
  }

  async #resume(previous: PreviousPayment) {
    return (await this.#parameters.paths.recovery()).resume(this.#handle, previous)
  }

  // Polling: fast while a payment is on its way or on a path's own step (paying by hand: the
  // transfer can arrive any moment), and once more at once after each news of ours.

  #watch() {
    if (this.#unwatch) return
    const { config, sessionId } = this
    const token = this.token.current
    // A query a stopped watcher left in error would stop the new watcher at its first result.
    config.queryClient.removeQueries({
      queryKey: sessionQueryKey(sessionId),
      predicate: (query) => query.state.status === 'error',
    })
    const machine = () => this.#machine
    this.#unwatch = watchSession(config, {
      sessionId,
      sessionToken: token,
      isActive: () =>
        machine().busy || isInFlight(machine().step) || fastSteps.includes(machine().step),
      onChange: (session) => takeSession(this.#handle, session),
      onError: (error, final) => {
        if (!final || this.settled) return
        this.#unwatch = undefined
        this.#dispatch({ type: 'retryByLoading' })
        if (!isTokenRefused(error)) return this.fail(error, true)
        void this.token.renew(token).then((fresh) => {
          if (this.#destroyed || this.settled) return
          if (fresh) this.#watch()
          else this.#recover((recovery) => recovery.untrack(this.#handle, error), error)
        })
      },
    })
  }

  stopWatching(): void {
    this.#unwatch?.()
    this.#unwatch = undefined
  }

  /** Reads the session at once rather than at the next poll. */
  refresh(): void {
    if (!this.#destroyed)
      void this.config.queryClient.invalidateQueries({ queryKey: sessionQueryKey(this.sessionId) })
  }

  async #readSession() {
    const { config, sessionId } = this
    return this.token.use((sessionToken) => getSession(config, { sessionId, sessionToken }))
  }

  async #load() {
    this.#dispatch({ type: 'load' }, { error: undefined, canRetry: false })
    try {
      const initial = initialSession(this.config, this.#parameters)
      this.#parameters = { ...this.#parameters, initialSession: undefined }
      const session = initial ?? (await this.#readSession())
      // A session for another order is refused before anything is shown or offered: not even
      // "paid" (an order paid elsewhere is not this one), nor any way to pay.
      checkExpectedPayment(session, this.#parameters)
      takeSession(this.#handle, session)
      if (this.settled) return
      this.#assets = resolveSessionAssets(this.config.registry, session)
      this.#set({ network: this.#assets.network })
      this.#watch()
      const previous = await checkPreviousPayment(this.config, {
        session,
        staleAfter: this.staleAfter,
      })
      if (this.settled) return
      if (previous.kind !== 'none') return await this.#resume(previous)
      this.#dispatch({ type: 'nothingPending' })
      await this.offerPayment()
    } catch (error) {
      if (this.settled) return
      this.fail(asError(error), isRetryable(error))
    }
  }

  /** Nothing in flight: the wallet choice, or the token choice for a connected wallet. */
  offerPayment(): Promise<void> {
    return offerPayment(this.#handle)
  }

  /**
   * The transfer is mined: report it once more with the spec's `wait` (idempotent), so the
   * service processes it now, then read the session at once rather than at the next poll. A
   * service that ignores `wait`, or fails, leaves it to polling.
   */
  async askServiceToSettle(hash: Hex): Promise<void> {
    const { config, sessionId } = this
    await this.token
      .use((sessionToken) => reportFunding(config, { sessionId, sessionToken, hash, wait: true }))
      .catch(() => {})
    // Paid shows from this read, never from the report's answer alone: the session as last
    // read may name another token or no customer yet, and paid tells the customer what they paid.
    this.refresh()
  }

  connect(walletId?: string): Promise<void> {
    return connect(this.#handle, walletId)
  }

  disconnect(): Promise<void> {
    return disconnect(this.#handle)
  }

  selectToken(symbol: string): void {
    selectToken(this.#handle, symbol)
  }

  /** Pays by the path named (`./paths/`), or by the default one if the checkout does not offer it. */
  async pay(options: PayOptions = {}): Promise<void> {
    const asked = paymentPaths[options.path ?? defaultPath]
    const offered = asked.offered(this.#handle.offer(this.#state.selectedToken))
    await (offered ? asked : paymentPaths[defaultPath]).run?.(this.#handle)
  }

  async retry(): Promise<void> {
    if (!this.#state.canRetry || this.#machine.busy) return
    const action = retryAction(this.#machine)
    if (action === 'connect') return this.connect(this.#machine.lastWalletId)
    if (action === 'pay') {
      this.#dispatch({ type: 'retry' }, { error: undefined, canRetry: false })
      return this.pay({ path: this.#machine.lastPath as PaymentPath | undefined })
    }
    this.stopWatching()
    return this.#load()
  }

  destroy(): void {
    this.#destroyed = true
    this.#following.abort()
    this.stopWatching()
    this.#stopConnection()
    this.#stopWallets()
    this.#listeners.clear()
  }
}

function isRetryable(error: unknown) {
  return (
    !(error instanceof PaySessionError) ||
    ['API_UNAVAILABLE', 'INVALID_RESPONSE', 'CHAIN_UNAVAILABLE', 'WALLET_ERROR'].includes(
      error.code,
    )
  )
}
