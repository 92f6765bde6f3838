import {
  type Checkout,
  type CheckoutPaths,
  CheckoutSession,
  type CheckoutState,
  checkApiBase,
  checkSocketUrl,
  checkUrl,
  createPaySessionConfig,
  createRegistry,
  extendRegistry,
  isInFlight,
  isPaidStatus,
  isStepIn,
  lockedSteps,
  offerSteps,
  type PaymentSession,
  type PayOptions,
  type PaySessionConfig,
  PaySessionError,
  paidSteps,
  pinnedChanges,
  type Registry,
  systemClock,
} from '@paysession/core'
import type { CreateConnectorFn } from '@wagmi/core'
import type { CSSResult, ReactiveController, ReactiveControllerHost } from 'lit'
import { PaySessionErrorEvent } from '../events/error.js'
import { PaySessionFundingSentEvent } from '../events/funding-sent.js'
import { PaySessionPaidEvent } from '../events/paid.js'
import { PaySessionStatusChangeEvent } from '../events/status-change.js'
import { PaySessionStepChangeEvent } from '../events/step-change.js'
import { PaySessionTokenSelectedEvent } from '../events/token-selected.js'
import { PaySessionWalletConnectedEvent } from '../events/wallet-connected.js'
import { numbers } from '../i18n/localize.js'
import { type InputCheck, type Inputs, inputRows } from '../inputs.js'
import type { WalletAttributes } from '../wallets/kinds.js'

/**
 * The inputs whose change restarts the checkout, as a reload would (src/inputs.ts): a page
 * often sets a property just after the element, such as `rpcUrls` in a script of its own, and
 * the new value must be used and checked.
 */
export const settings = (h: Readonly<Inputs>) =>
  JSON.stringify(
    inputRows.map(([name, { restarts }]) => (restarts ? h[name] : null)),
    (_, value) => (typeof value === 'bigint' ? String(value) : value),
  )

// The inputs' checks by core's rules (src/inputs.ts, `check`), run when the checkout starts,
// before the wagmi config that would open a socket to a refused relay. `imageUrl` is the view's.
const checks: Partial<Record<InputCheck, (value: string, setting: string) => unknown>> = {
  apiBase: checkApiBase,
  url: checkUrl,
  relativeUrl: (value, setting) => checkUrl(value, setting, true),
  socketUrl: checkSocketUrl,
}

/**
 * What the controller reads of its element (`<paysession-checkout>` implements it). Declared
 * here so that the controller never imports the component: the component uses the controller.
 */
export interface CheckoutHost extends ReactiveControllerHost, EventTarget, Readonly<Inputs> {
  readonly isConnected: boolean
  readonly resolvedLocale: string
  /** The button's read: core starts from it, and hands it the session when its own was refused. */
  readonly preview: {
    adopt(session: PaymentSession): void
    lastRead(): { session: PaymentSession; at: number } | undefined
  }
  close(): void
  /** A lazily loaded view's styles join the element's shadow root. */
  addStyles(styles: CSSResult): void
}

/**
 * What the controller loads lazily, handed over by the dialog (src/loads.dialog.ts decides when):
 * the views import the controller's types, so the controller never imports what loads them.
 */
export interface ControllerLoads {
  /** Core's rarer paths, when the checkout first takes one. */
  readonly paths: CheckoutPaths
  /** The connectors of the wallet kinds the page turned on; undefined when none is on. */
  wallets(h: WalletAttributes): Promise<CreateConnectorFn[]> | undefined
}

/**
 * Binds core's checkout to the element: builds the config from its attributes and properties,
 * re-renders on every state, and turns meaningful transitions into `paysession-*` events. The
 * views read its fields and call its methods; they never assign its fields (the element and the
 * views hold it as `Readonly<CheckoutController>`) nor reach core's checkout behind it.
 */
export class CheckoutController implements ReactiveController {
  state: CheckoutState | undefined
  /** UI-only: the review step shows the stablecoin list again (core has no step back). */
  changingToken = false
  /** UI-only: the text last copied, for the "Copied" feedback. */
  copied: string | undefined
  /** UI-only: the manual step shows the wallet list again, to pay with a wallet after all. */
  pickingWallet = false
  /** UI-only: the stablecoin the manual step shows (the session's default until one is picked). */
  manualToken: string | undefined
  /** The pairing URI while connecting (WalletConnect's `wc:`), shown as a QR code for a phone to scan. */
  pairingUri: string | undefined
  /** The error showing when the dialog closed, not shown again on reopening. */
  #dismissed: PaySessionError | undefined
  #config: PaySessionConfig | undefined
  #checkout: Checkout | undefined
  /** The settings the running checkout started with (`settings`): other ones restart it. */
  #started = ''
  #unsubscribe: (() => void) | undefined
  #paidFired = false
  /** The countdown's next re-render is due. */
  #ticking = false
  #sentHere = false
  #sawUnpaid = false
  #unwatchPairing: (() => void) | undefined
  /** Bumped by every stop: a start still loading a wallet kind's code then gives up. */
  #generation = 0
  /** The generation whose start waits for the wallet kinds' code. */
  #loadingFor: number | undefined

  readonly #host: CheckoutHost
  readonly #loads: ControllerLoads

  constructor(host: CheckoutHost, loads: ControllerLoads) {
    this.#host = host
    this.#loads = loads
    host.addController(this)
    if (host.isConnected) this.#start()
  }

  hostConnected() {
    this.#start()
  }

  hostDisconnected() {
    this.#stop()
  }

  hostUpdated() {
    const { sessionId, sessionToken, apiBase } = this.#host
    if (settings(this.#host) !== this.#started && sessionId && sessionToken && apiBase) {
      this.#stop()
      this.#start()
    }
  }

  // What the views ask for. Each asks core's checkout, or changes what the dialog shows and
  // re-renders; none is a step of its own (core owns the steps).

  connect(walletId: string) {
    this.#checkout?.connect(walletId)
  }

  disconnect() {
    this.#checkout?.disconnect()
  }

  selectToken(symbol: string) {
    this.changingToken = false
    this.#checkout?.selectToken(symbol)
  }

  /** The review step's "change": the stablecoin list again, without leaving the step. */
  changeToken() {
    this.changingToken = true
    this.#host.requestUpdate()
  }

  /** Pays by the path named (default the wallet; `gasless`: signing only, through the merchant's relay). */
  pay(options?: PayOptions) {
    this.#checkout?.pay(options)
  }

  retry() {
    this.#checkout?.retry()
  }

  payManually() {
    this.pickingWallet = false
    this.#checkout?.payManually()
    this.#host.requestUpdate()
  }

  /** From the manual payment: the wallet list again, to pay with a wallet after all. */
  pickWallet() {
    this.pickingWallet = true
    this.#host.requestUpdate()
  }

  chooseManualToken(symbol: string) {
    this.manualToken = symbol
    this.#host.requestUpdate()
  }

  async copy(text: string) {
    await navigator.clipboard?.writeText(text).catch(() => {})
    this.copied = text
    this.#host.requestUpdate()
  }

  /**
   * The error to show: the state's, unless the customer saw it before closing the dialog and is
   * back on a step that offers the payment again (it was about an earlier attempt).
   */
  get error(): PaySessionError | undefined {
    const state = this.state
    const seen = state?.error === this.#dismissed && isStepIn(offerSteps, state?.step)
    return seen ? undefined : state?.error
  }

  /** The registry the checkout runs with: the manual view finds the session's tokens in it. */
  get registry(): Registry | undefined {
    return this.#config?.registry
  }

  /** Whether a payment may be on its way (the button says so, and does not offer to pay). */
  get inFlight(): boolean {
    return isInFlight(this.state?.step)
  }

  /** Whether the dialog may close now (Escape, the close button). */
  get closable(): boolean {
    // Closing while the wallet prompt is open or the hash is being reported would hide what is
    // happening; a pairing by URI waits for a phone that may never scan it: nothing is sent yet.
    return !isStepIn(lockedSteps, this.state?.step) || !!this.pairingUri
  }

  /**
   * Seconds until the customer may pay again (`state.retryAt`), on the checkout's clock. A view
   * that shows them is rendered again a second later.
   */
  countdown(): number {
    const clock = this.#config?.polling.clock ?? systemClock
    if (!this.#ticking) {
      this.#ticking = true
      clock.setTimeout(() => {
        this.#ticking = false
        this.#host.requestUpdate()
      }, 1000)
    }
    return Math.max(0, Math.ceil(((this.state?.retryAt ?? 0) - clock.now()) / 1000))
  }

  /** The dialog closed: the error showing now was seen, and is not shown again on reopening. */
  dismiss() {
    this.#dismissed = this.state?.error
  }

  #start() {
    const { sessionId, sessionToken, apiBase } = this.#host
    if (this.#checkout || this.#loadingFor === this.#generation) return
    if (!sessionId || !sessionToken || !apiBase) return
    const loading = this.#loads.wallets(this.#host)
    if (!loading) return this.#begin([])
    const generation = this.#generation
    this.#loadingFor = generation
    this.#started = settings(this.#host)
    loading.then((connectors) => {
      if (this.#loadingFor === generation) this.#loadingFor = undefined
      if (generation === this.#generation) this.#begin(connectors)
    })
  }

  #begin(connectors: CreateConnectorFn[]) {
    const { sessionId, sessionToken, apiBase } = this.#host
    if (this.#checkout || !sessionId || !sessionToken || !apiBase) return
    const h = this.#host
    this.#started = settings(h)
    this.#paidFired = false
    this.#sentHere = false
    this.#sawUnpaid = false
    try {
      for (const [name, { check }] of inputRows) {
        const value = h[name]
        if (check && typeof value === 'string' && value) checks[check]?.(value, name)
      }
      const registry = this.#registryOf(h)
      const read = h.preview.lastRead()
      this.#config = createPaySessionConfig({
        apiBase,
        registry,
        ...(h.wagmiConfig ? { wagmiConfig: h.wagmiConfig } : {}),
        ...(h.fetch ? { fetch: h.fetch } : {}),
        ...(h.rpcUrls ? { rpcUrls: h.rpcUrls } : {}),
        polling: { ...h.polling, ...(h.pollInterval ? { interval: h.pollInterval } : {}) },
        ...(h.paymasterUrl ? { paymasterUrl: h.paymasterUrl } : {}),
        connectors,
      })
      this.#checkout = new CheckoutSession(this.#config, {
        sessionId,
        sessionToken,
        // Read at each refusal: a page may set the provider after the element.
        getSessionToken: () => h.tokenProvider?.(sessionId),
        locale: numbers(h.resolvedLocale),
        expectedAmount: h.expectedAmount,
        expectedCurrency: h.expectedCurrency,
        relayUrl: h.relayUrl,
        // The button's read, a moment old: the dialog does not wait for a second one.
        initialSession: read?.session,
        initialSessionUpdatedAt: read?.at,
        paths: this.#loads.paths,
      })
    } catch (error) {
      // The page's settings (an insecure api-base, a refused URL or token): show it as the
      // checkout's end, not a crash.
      const failed = error instanceof PaySessionError ? error : new PaySessionError('API_ERROR')
      return this.#onState({
        step: 'failed',
        error: failed,
        canRetry: false,
        wallets: [],
        tokens: [],
        gasWarning: false,
        gasless: false,
      })
    }
    this.#unsubscribe = this.#checkout.subscribe((state) => this.#onState(state))
    this.#unwatchPairing = this.#watchPairing()
    this.#onState(this.#checkout.getState())
  }

  /**
   * The page's registry (`registry`, then `networks` and `tokens`). Changing what core pins (a
   * page's typo or an injected script could make a customer pay 10^k times the amount, or plant
   * an RPC in the wallet) takes `allow-token-overrides`, and is said in the console.
   */
  #registryOf(h: CheckoutHost): Registry {
    const local = h.rpcUrls?.[31337]
    let registry = h.registry ?? createRegistry({ localRpcUrl: local })
    if (h.networks || h.tokens)
      registry = extendRegistry(registry, { networks: h.networks, tokens: h.tokens })
    const changes = pinnedChanges(registry, local).join(', ')
    const details = `changes pinned ${changes} (allow-token-overrides)`
    if (changes && !h.allowTokenOverrides) throw new PaySessionError('INVALID_CONFIG', { details })
    if (changes) console.warn(`<paysession-checkout> ${details}`)
    return registry
  }

  /** Keeps the pairing URI a connector announces (`display_uri`: WalletConnect's, ours or the page's). */
  #watchPairing() {
    const connectors = this.#config?.wagmiConfig.connectors ?? []
    const onMessage = ({ type, data }: { type: string; data?: unknown }) => {
      if (type !== 'display_uri' || typeof data !== 'string') return
      this.pairingUri = data
      this.#host.requestUpdate()
    }
    for (const connector of connectors) connector.emitter.on('message', onMessage)
    return () => {
      for (const connector of connectors) connector.emitter.off('message', onMessage)
    }
  }

  #stop() {
    this.#generation++
    this.#unwatchPairing?.()
    this.#unwatchPairing = undefined
    this.pairingUri = undefined
    this.#unsubscribe?.()
    this.#checkout?.destroy()
    this.#checkout = undefined
    this.state = undefined
  }

  #onState(next: CheckoutState) {
    const previous = this.state
    this.state = next

    const fire = (event: Event) => this.#host.dispatchEvent(event)
    // The button's first read failed (a refused token): the session core read with a fresh one.
    if (next.session) this.#host.preview.adopt(next.session)
    if (next.step !== previous?.step) {
      this.pickingWallet = false
      if (next.step !== 'connecting') this.pairingUri = undefined
      fire(new PaySessionStepChangeEvent({ step: next.step, previousStep: previous?.step }))
    }
    const status = next.session?.status
    const previousStatus = previous?.session?.status
    if (status && previousStatus && status !== previousStatus)
      fire(new PaySessionStatusChangeEvent({ status, previousStatus }))
    if (next.account && next.account !== previous?.account)
      fire(new PaySessionWalletConnectedEvent({ address: next.account, chainId: next.chainId }))
    if (
      next.step === 'review' &&
      next.selectedToken &&
      (previous?.step === 'chooseToken' || next.selectedToken !== previous?.selectedToken)
    )
      fire(new PaySessionTokenSelectedEvent({ symbol: next.selectedToken }))
    // Events say what happened on this page: a transfer this page's wallet prompt sent, and the
    // session found paid at load (`replay`) apart from one paid while the page watched.
    if (next.step === 'confirmInWallet') this.#sentHere = true
    if (next.step !== 'loading' && next.step !== 'failed' && !isStepIn(paidSteps, next.step))
      this.#sawUnpaid = true
    if (this.#sentHere && next.hash && next.hash !== previous?.hash)
      fire(new PaySessionFundingSentEvent({ hash: next.hash, explorerTxUrl: next.explorerTxUrl }))
    if (isStepIn(paidSteps, next.step) && !this.#paidFired) {
      this.#paidFired = true
      fire(
        new PaySessionPaidEvent({
          sessionId: this.#host.sessionId ?? '',
          status: status && isPaidStatus(status) ? status : 'FUNDED',
          amount: next.amount,
          tokenSymbol: next.session?.tokenSymbol,
          hash: next.hash,
          replay: !this.#sawUnpaid,
        }),
      )
    }
    if (next.error && next.error !== previous?.error)
      fire(
        new PaySessionErrorEvent({
          code: next.error.code,
          message: next.error.shortMessage,
          retryable: next.canRetry,
          details: next.error.details,
        }),
      )
    this.#host.requestUpdate()
  }
}
