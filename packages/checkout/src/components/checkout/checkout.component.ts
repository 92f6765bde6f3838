import {
  type CheckoutState,
  type CheckoutStep,
  checkApiBase,
  getSession,
  isPaidStatus,
  type NetworkInfo,
  type PaymentSession,
  type PaySessionConfig,
  PaySessionError,
  type Registry,
  readPaymentRecord,
  type StablecoinInfo,
} from '@paysession/core'
import type { Config as WagmiConfig } from '@wagmi/core'
import { html, LitElement, nothing, type PropertyValues } from 'lit'
import { PaySessionCloseEvent } from '../../events/close.js'
import { PaySessionErrorEvent } from '../../events/error.js'
import { PaySessionOpenEvent } from '../../events/open.js'
import { PaySessionReadyEvent } from '../../events/ready.js'
import { buttonStringsFor } from '../../i18n/button.js'
import type { Catalog } from '../../i18n/en.js'
import { format, formatMoney } from '../../i18n/localize.js'
import { styles } from './checkout.styles.js'

type Engine = typeof import('./checkout.dialog.js')
type Controller = InstanceType<Engine['CheckoutController']>

const inFlightSteps: CheckoutStep[] = [
  'confirmInWallet',
  'waitingForWallet',
  'submitted',
  'confirming',
  'waitingForService',
]
// Closing while the wallet prompt is open or the hash is being reported would hide what is happening.
const lockedSteps: CheckoutStep[] = ['connecting', 'confirmInWallet', 'submitted']
const focusable = 'button:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])'

/**
 * The stablecoin checkout: a pay button that opens a dialog walking the customer through the
 * payment (wallet, stablecoin, review, confirmation) or a manual payment with a QR code.
 * The dialog's code (core, wagmi, viem, query-core) loads on first open or when the page is idle.
 *
 * @summary Stablecoin checkout for one Payment Session.
 * @tag paysession-checkout
 *
 * @event {PaySessionReadyEvent} paysession-ready - The session loaded; the button shows it.
 * @event {PaySessionOpenEvent} paysession-open - The dialog opened.
 * @event {PaySessionCloseEvent} paysession-close - The dialog closed.
 * @event {PaySessionStepChangeEvent} paysession-step-change - The checkout moved to another step.
 * @event {PaySessionWalletConnectedEvent} paysession-wallet-connected - A wallet connected.
 * @event {PaySessionTokenSelectedEvent} paysession-token-selected - The customer chose a stablecoin.
 * @event {PaySessionFundingSentEvent} paysession-funding-sent - The wallet sent the transfer (hash).
 * @event {PaySessionStatusChangeEvent} paysession-status-change - The service status changed.
 * @event {PaySessionPaidEvent} paysession-paid - The session is paid.
 * @event {PaySessionErrorEvent} paysession-error - An error is shown (stable `code`).
 *
 * @csspart button - The pay button.
 * @csspart dialog - The dialog.
 * @csspart header - The dialog header.
 * @csspart title - The dialog title.
 * @csspart close - The close button.
 * @csspart body - The dialog body.
 * @csspart wallet - A wallet choice.
 * @csspart token - A stablecoin choice.
 * @csspart primary - The main action of a step.
 * @csspart gasless - "Pay without network fees" (with `relay-url`, for EIP-3009 tokens).
 * @csspart error - An error message.
 * @csspart notice - A notice (gas warning, waiting).
 * @csspart address - The receiving address.
 * @csspart qr - The EIP-681 QR code, or the QR code that opens the checkout on a phone.
 * @csspart wallet-link - A link that opens the checkout in a wallet app (a phone without a wallet).
 *
 * @cssprop --paysession-font - Font family.
 * @cssprop --paysession-font-size - Base font size (16px).
 * @cssprop --paysession-radius - Corner radius (10px).
 * @cssprop --paysession-accent - Button and accent color.
 * @cssprop --paysession-accent-contrast - Text on the accent color.
 * @cssprop --paysession-background - Dialog background.
 * @cssprop --paysession-foreground - Text color.
 * @cssprop --paysession-muted - Secondary text.
 * @cssprop --paysession-border - Borders.
 * @cssprop --paysession-surface - Address and notice background.
 * @cssprop --paysession-danger - Errors.
 * @cssprop --paysession-success - Success mark.
 * @cssprop --paysession-focus-ring - Focus ring (a box-shadow).
 * @cssprop --paysession-backdrop - Backdrop behind the dialog.
 */
export class PaySessionCheckout extends LitElement {
  static override styles = styles
  static override properties = {
    sessionId: { attribute: 'session-id' },
    sessionToken: { attribute: 'session-token' },
    apiBase: { attribute: 'api-base' },
    expectedAmount: { attribute: 'expected-amount' },
    expectedCurrency: { attribute: 'expected-currency' },
    relayUrl: { attribute: 'relay-url' },
    locale: {},
    theme: { reflect: true },
    wagmiConfig: { attribute: false },
    rpcUrls: { attribute: false },
    registry: { attribute: false },
    networks: { attribute: false },
    tokens: { attribute: false },
    fetch: { attribute: false },
    _preview: { state: true, attribute: false },
    _previewError: { state: true, attribute: false },
    _open: { state: true, attribute: false },
    _catalog: { state: true, attribute: false },
    _engine: { state: true, attribute: false },
  }

  /** The Payment Session id (`session-id`). */
  declare sessionId: string | undefined
  /** The short-lived session token from your server (`session-token`). */
  declare sessionToken: string | undefined
  /** The service base URL, with or without `/api/v1` (`api-base`). `https:` only (`http:` on localhost). */
  declare apiBase: string | undefined
  /** The order's amount (`expected-amount`): a session asking for another is refused. */
  declare expectedAmount: string | undefined
  /** The order's currency (`expected-currency`): a session in another is refused. */
  declare expectedCurrency: string | undefined
  /**
   * Your relay for payments without network fees (`relay-url`): `createRelayHandler` of
   * `@paysession/server`. With it, USDC and EURC can be paid by signing, without ETH.
   */
  declare relayUrl: string | undefined
  /** BCP 47 locale (`en`, `de`, `fr`...). Defaults to the page's `lang`, then the browser's. */
  declare locale: string | undefined
  /** `light`, `dark`, or unset to follow `prefers-color-scheme`. */
  declare theme: 'light' | 'dark' | undefined
  /** Your wagmi config (property). Without it one is built with the injected (EIP-6963) wallets. */
  declare wagmiConfig: WagmiConfig | undefined
  /** RPC URL per chain id (property), e.g. `{ 31337: sandbox.rpcUrl }`. */
  declare rpcUrls: Record<number, string> | undefined
  /** A whole registry of networks and stablecoins (property), replacing core's pinned one. */
  declare registry: Registry | undefined
  /** Extra networks (property), added to the registry. */
  declare networks: NetworkInfo[] | undefined
  /** Extra stablecoins per network name (property), e.g. `{ BASE: [{ symbol, address, decimals }] }`. */
  declare tokens: Record<string, StablecoinInfo[]> | undefined
  /** A custom fetch for the service calls (property). */
  declare fetch: typeof globalThis.fetch | undefined

  /** @internal */
  declare _preview: PaymentSession | undefined
  /** @internal */
  declare _previewError: PaySessionError | undefined
  /** @internal */
  declare _open: boolean
  /** @internal */
  declare _catalog: Catalog | undefined
  /** @internal */
  declare _engine: Engine | undefined
  /** The checkout controller, once the dialog code has loaded. */
  controller: Controller | undefined
  private _returnFocus: HTMLElement | null = null
  private _previewKey = ''
  private _focusedStep = ''
  private _enginePromise: Promise<Engine> | undefined

  constructor() {
    super()
    this._open = false
  }

  /** The effective locale. */
  get resolvedLocale(): string {
    return this.locale || document.documentElement.lang || navigator.language || 'en'
  }

  /** Opens the checkout dialog (loads its code first when needed). */
  async open(): Promise<void> {
    if (this._open) return
    this._returnFocus = deepActiveElement()
    this._open = true
    await this.updateComplete
    this._dialog?.showModal()
    this._focusedStep = ''
    this.requestUpdate()
    this.dispatchEvent(new PaySessionOpenEvent({ sessionId: this.sessionId ?? '' }))
    await this.loadEngine()
  }

  /** Closes the dialog and gives focus back to where it was. */
  close(): void {
    if (!this._open) return
    this._open = false
    this._dialog?.close()
    ;(this._returnFocus ?? this._button)?.focus()
    this._returnFocus = null
    this._focusedStep = ''
    this.dispatchEvent(
      new PaySessionCloseEvent({ sessionId: this.sessionId ?? '', step: this.state?.step }),
    )
  }

  /** The checkout state from core, once the dialog code has loaded. */
  get state(): CheckoutState | undefined {
    return this.controller?.state
  }

  /** Loads the dialog code and starts the checkout controller. Called on open or when idle. */
  loadEngine(): Promise<Engine> {
    this._enginePromise ??= import('./checkout.dialog.js').then(async (engine) => {
      const root = this.renderRoot as ShadowRoot
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, engine.dialogStyles.styleSheet!]
      this._catalog = await engine.loadCatalog(this.resolvedLocale)
      this.controller = new engine.CheckoutController(this)
      this._engine = engine
      return engine
    })
    return this._enginePromise
  }

  /** Whether Escape or the close button may close the dialog now. */
  get closable(): boolean {
    return !lockedSteps.includes(this.state?.step as CheckoutStep)
  }

  get _dialog(): HTMLDialogElement | null {
    return this.renderRoot.querySelector('dialog')
  }

  get _button(): HTMLButtonElement | null {
    return this.renderRoot.querySelector('[part~="button"]')
  }

  override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('locale') && this._engine) {
      const locale = this.resolvedLocale
      void this._engine.loadCatalog(locale).then((catalog) => {
        if (locale === this.resolvedLocale) this._catalog = catalog
      })
    }
  }

  override updated() {
    const key = [
      this.sessionId,
      this.sessionToken,
      this.apiBase,
      this.expectedAmount,
      this.expectedCurrency,
    ].join('|')
    if (key !== this._previewKey && this.sessionId && this.sessionToken && this.apiBase) {
      this._previewKey = key
      void this._loadPreview()
      this.controller?.restart()
    }
    const step = `${this.state?.step}:${this.controller?.changingToken}`
    if (this._dialog?.open && this._engine && step !== this._focusedStep) {
      this._focusedStep = step
      this.focusStep()
    }
  }

  /** Moves focus into the current step (its marked action, else its first control). */
  focusStep() {
    const body = this.renderRoot.querySelector('[part~="body"]')
    const target =
      body?.querySelector<HTMLElement>('[data-autofocus]') ??
      body?.querySelector<HTMLElement>(focusable) ??
      this.renderRoot.querySelector<HTMLElement>('[part~="close"]')
    target?.focus()
  }

  // A light read for the button: core's getSession alone, so the first file stays small.
  private async _loadPreview() {
    const { sessionId, sessionToken, apiBase } = this
    try {
      const config = {
        apiBase: checkApiBase(apiBase!),
        fetch: this.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args)),
        requestTimeout: 15_000,
      } as PaySessionConfig
      const session = await getSession(config, {
        sessionId: sessionId!,
        sessionToken: sessionToken!,
      })
      this._preview = session
      this._previewError = undefined
      this.dispatchEvent(
        new PaySessionReadyEvent({
          sessionId: session.paymentSessionId,
          status: session.status,
          amount: session.amount,
          currency: session.currency,
        }),
      )
    } catch (error) {
      const e = error instanceof PaySessionError ? error : new PaySessionError('API_UNAVAILABLE')
      this._previewError = e
      this.dispatchEvent(
        new PaySessionErrorEvent({
          code: e.code,
          message: e.shortMessage,
          // An insecure api-base is the page's own setting: trying again cannot help.
          retryable: e.code !== 'INSECURE_API_BASE',
        }),
      )
    }
    const idle = globalThis.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 1))
    idle(() => void this.loadEngine(), { timeout: 2000 })
  }

  private _inFlight(session: PaymentSession | undefined) {
    const step = this.state?.step
    if (step) return inFlightSteps.includes(step)
    let record: unknown
    try {
      record = this.sessionId && readPaymentRecord(localStorage, this.sessionId)
    } catch {}
    return Boolean(record || session?.userSubmittedTransactionHash)
  }

  private _buttonLabel(): { label: string; busy: boolean } {
    const t = buttonStringsFor(this.resolvedLocale)
    const state = this.state
    const session = state?.session ?? this._preview
    if (!session) {
      if (this._previewError?.code === 'SESSION_TOKEN_EXPIRED' || state?.step === 'expired')
        return { label: t.expiredButton, busy: false }
      const failed = this._previewError || state?.step === 'failed'
      return { label: failed ? t.unavailable : t.payLoading, busy: !failed }
    }
    if (isPaidStatus(session.status) || state?.step === 'paid')
      return { label: t.paid, busy: false }
    if (session.status === 'CANCELED' || state?.step === 'expired')
      return { label: t.expiredButton, busy: false }
    if (this._inFlight(session)) return { label: t.inProgress, busy: false }
    // Not this order's payment (the dialog's code checks, once loaded): never invite to pay it.
    if (state?.error?.code === 'SESSION_MISMATCH') return { label: t.unavailable, busy: false }
    const amount = formatMoney(
      state?.amount ?? session.amount,
      session.currency,
      this.resolvedLocale,
    )
    return { label: format(t.pay, { amount }), busy: false }
  }

  private _onKeydown(event: KeyboardEvent) {
    if (event.key === 'Escape') {
      event.preventDefault()
      if (this.closable) this.close()
      return
    }
    if (event.key !== 'Tab') return
    const items = [...(this._dialog?.querySelectorAll<HTMLElement>(focusable) ?? [])]
    const first = items[0]
    const last = items[items.length - 1]
    const active = (this.renderRoot as ShadowRoot).activeElement
    if (event.shiftKey && (active === first || !active)) {
      event.preventDefault()
      last?.focus()
    } else if (!event.shiftKey && (active === last || !active)) {
      event.preventDefault()
      first?.focus()
    }
  }

  override render() {
    const t = buttonStringsFor(this.resolvedLocale)
    const { label, busy } = this._buttonLabel()
    return html`
      <button
        part="button"
        type="button"
        aria-haspopup="dialog"
        aria-busy=${busy ? 'true' : 'false'}
        ?disabled=${busy}
        @click=${() => this.open()}
      >
        ${label}
      </button>
      <dialog
        part="dialog"
        aria-labelledby="title"
        lang=${this.resolvedLocale}
        @keydown=${this._onKeydown}
        @cancel=${(event: Event) => event.preventDefault()}
      >
        ${
          this._open
            ? html`
              <div class="header" part="header">
                <h2 id="title" part="title">${t.title}</h2>
                <button
                  part="close"
                  type="button"
                  aria-label=${t.close}
                  ?disabled=${!this.closable}
                  @click=${() => this.close()}
                >
                  ×
                </button>
              </div>
              <div part="body">
                ${
                  this._engine && this.controller && this._catalog
                    ? this._engine.renderStep(this, this.controller, { ...t, ...this._catalog })
                    : html`<span class="spinner"></span><p class="center">${t.loading}</p>`
                }
              </div>
            `
            : nothing
        }
      </dialog>
    `
  }
}

function deepActiveElement(): HTMLElement | null {
  let element = document.activeElement
  while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement
  return element instanceof HTMLElement ? element : null
}
