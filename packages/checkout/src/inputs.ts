import type { NetworkInfo, PollingSettings, Registry, StablecoinInfo } from '@paysession/core'
import type { Config as WagmiConfig } from '@wagmi/core'

/** Resolves to a fresh session token for the session, or undefined when there is none. */
export type SessionTokenProvider = (
  sessionId: string,
) => Promise<string | undefined> | string | undefined

/** How an input is read: an attribute, an object property (`json`, `object`), a property only. */
export type InputKind = 'text' | 'number' | 'boolean' | 'json' | 'object' | 'property'
declare const value: unique symbol
/** An input's kind, named at run time; its value's type rides along for TypeScript only. */
export type InputType<Kind extends string = string, Value = unknown> = Kind & {
  readonly [value]: Value
}
// An attribute, read as Lit reads a String, a Number or a Boolean.
const text = <Value extends string = string>() => 'text' as InputType<'text', Value>
const number = () => 'number' as InputType<'number', number>
const boolean = () => 'boolean' as InputType<'boolean', boolean>
// An object property whose attribute also takes JSON text (checkout.properties.ts).
const json = <Value>() => 'json' as InputType<'json', Value>
// An object property, also under its kebab-case name, never text: a config, a function.
const object = <Value>() => 'object' as InputType<'object', Value>
// A property only.
const property = <Value>() => 'property' as InputType<'property', Value>

/**
 * How a value is checked beyond its type, by core's rule of that name when the checkout starts
 * (the controller's `checks`), or where it is shown (`imageUrl`: else it is not shown).
 */
export type InputCheck = 'apiBase' | 'url' | 'relativeUrl' | 'socketUrl' | 'imageUrl'

type Input = {
  /** Its kebab-case attribute; `false` for a property only. */
  readonly attribute: string | false
  readonly type: InputType<InputKind>
  /** A change restarts the checkout, as a reload would (a payment under way resumes). */
  readonly restarts?: true
  /** Its value until the page sets one; else undefined. */
  readonly default?: unknown
  readonly check?: InputCheck
  /** The attribute follows the property (the styles select on it). */
  readonly reflect?: true
}

/**
 * The inputs of `<paysession-checkout>`, each once: the element's properties and their types, the
 * controller's host and the settings that restart the checkout, the custom-elements manifest and
 * the framework types are read from here (test/inputs.test.ts checks the generated ones). Each
 * row's comment is its documentation, in the manifest and in every framework's types. What only
 * its identity tells apart (a config, a function) does not restart it: it is read when the
 * checkout starts (the token provider at each refusal).
 */
export const inputs = {
  /** The Payment Session id (`session-id`). */
  sessionId: { attribute: 'session-id', type: text(), restarts: true },
  /** The short-lived session token from your server (`session-token`). */
  sessionToken: { attribute: 'session-token', type: text(), restarts: true },
  /** The service base URL, with or without `/api/v1` (`api-base`). `https:` only (`http:` on localhost). */
  apiBase: { attribute: 'api-base', type: text(), restarts: true, check: 'apiBase' },
  /** The order's amount (`expected-amount`): a session asking for another is refused. */
  expectedAmount: { attribute: 'expected-amount', type: text(), restarts: true },
  /** The order's currency (`expected-currency`): a session in another is refused. */
  expectedCurrency: { attribute: 'expected-currency', type: text(), restarts: true },
  /**
   * Your relay for payments without network fees (`relay-url`): `createRelayHandler` of
   * `@paysession/server`. With it, USDC and EURC can be paid by signing, without ETH.
   */
  relayUrl: { attribute: 'relay-url', type: text(), restarts: true, check: 'relativeUrl' },
  /**
   * The session's x402 URL (`x402-url`): `createX402Handler` of `@paysession/server/x402`. Shown
   * in the manual step, to copy, for agents and x402-aware wallets.
   */
  x402Url: { attribute: 'x402-url', type: text(), restarts: true, check: 'url' },
  /**
   * How often (ms) the checkout reads the session while a payment is on its way or the customer
   * pays by hand (`poll-interval`): core's `polling.interval`, default 2000. Read when the
   * checkout starts.
   */
  pollInterval: { attribute: 'poll-interval', type: number(), restarts: true },
  /**
   * Every polling setting (property): core's `PollingSettings` (`interval`, `idleInterval`,
   * `retryDelay`, `maxRetryDelay`, `jitter`, `callsTimeout`); `poll-interval` wins for `interval`.
   * @example checkout.polling = { idleInterval: 15_000, maxRetryDelay: 60_000 }
   */
  polling: { attribute: 'polling', type: json<Partial<PollingSettings>>(), restarts: true },
  /**
   * Your ERC-7677 paymaster service (`paymaster-url`): smart wallets that can use one (EIP-5792
   * `paymasterService`) are asked to have it pay the network fee.
   */
  paymasterUrl: { attribute: 'paymaster-url', type: text(), restarts: true, check: 'url' },
  /**
   * Your WalletConnect (Reown) project id (`wallet-connect-project-id`): the checkout then offers
   * WalletConnect, its pairing shown as a QR code. Its code loads only then: the chunked
   * script-tag build has it; on npm, `import '@paysession/checkout/walletconnect'` once. The
   * single-file build has no WalletConnect.
   */
  walletConnectProjectId: { attribute: 'wallet-connect-project-id', type: text(), restarts: true },
  /** The WalletConnect relay (`wallet-connect-relay-url`). Default: WalletConnect's own. */
  walletConnectRelayUrl: {
    attribute: 'wallet-connect-relay-url',
    type: text(),
    restarts: true,
    check: 'socketUrl',
  },
  /**
   * BCP 47 locale, one of the languages of src/i18n/ (`ar`, `es-419`, `zh-TW`...; docs/checkout.md,
   * Languages). Defaults to the element's `lang`, the nearest ancestor's, then the browser's
   * `navigator.languages`; a language without its own file falls back by base language, then to English.
   */
  locale: { attribute: 'locale', type: text() },
  /** Who is paid, shown with the amount on every step (`merchant-name`). */
  merchantName: { attribute: 'merchant-name', type: text() },
  /** An `https:` (or `data:image/`) URL of the merchant's square logo (`merchant-logo`). */
  merchantLogo: { attribute: 'merchant-logo', type: text(), check: 'imageUrl' },
  /** `light`, `dark`, or unset to follow `prefers-color-scheme`. */
  theme: { attribute: 'theme', type: text<'light' | 'dark'>(), reflect: true },
  /**
   * Your wagmi config (property; also `wagmi-config` as a property name, never as text). Without
   * it one is built with the injected (EIP-6963) wallets.
   */
  wagmiConfig: { attribute: 'wagmi-config', type: object<WagmiConfig>() },
  /**
   * RPC URL per chain id, e.g. `{ 31337: sandbox.rpcUrl }`: a property, or JSON in the `rpc-urls`
   * attribute (`rpc-urls='{"1":"https://…"}'`).
   */
  rpcUrls: { attribute: 'rpc-urls', type: json<Record<number, string>>(), restarts: true },
  /**
   * A whole registry of networks and stablecoins, replacing core's pinned one (property or JSON
   * `registry`). Changing a pinned network or token takes `allow-token-overrides`.
   */
  registry: { attribute: 'registry', type: json<Registry>(), restarts: true },
  /**
   * Extra networks, added to the registry (property or JSON `networks`). Replacing a pinned one
   * takes `allow-token-overrides`.
   */
  networks: { attribute: 'networks', type: json<NetworkInfo[]>(), restarts: true },
  /**
   * Extra stablecoins per network name, e.g. `{ BASE: [{ symbol, address, decimals }] }`
   * (property or JSON `tokens`). Replacing a pinned one takes `allow-token-overrides`.
   */
  tokens: { attribute: 'tokens', type: json<Record<string, StablecoinInfo[]>>(), restarts: true },
  /**
   * Lets `registry`, `networks` and `tokens` change a pinned network (chain id, RPCs, explorer)
   * or token (address, decimals, EIP-3009 domain) (`allow-token-overrides`). Each change is
   * logged as a console warning. Without it the checkout refuses such a page with
   * `INVALID_CONFIG`. Every token's decimals are checked on chain either way.
   */
  allowTokenOverrides: {
    attribute: 'allow-token-overrides',
    type: boolean(),
    restarts: true,
    default: false,
  },
  /** A custom fetch for the service calls (property). */
  fetch: { attribute: false, type: property<typeof globalThis.fetch>() },
  /**
   * Hands the widget a fresh session token (property, also named `token-provider`) when the service refuses the current one,
   * e.g. from your server; resolve to undefined when there is none. Without it (or a token) the
   * widget still reads the payment from the chain; it never calls a refused token "expired".
   * @example checkout.tokenProvider = async (sessionId) => (await fetch(`/orders/${sessionId}/token`, { method: 'POST' })).json()
   */
  tokenProvider: { attribute: 'token-provider', type: object<SessionTokenProvider>() },
} as const satisfies Record<string, Input>

export type InputName = keyof typeof inputs

type ValueOf<Row> = Row extends { type: InputType<string, infer Value> }
  ? Row extends { default: unknown }
    ? Value
    : Value | undefined
  : never

/** The inputs' values, as the element's properties hold them. */
// `keyof typeof inputs` spelled out: a homomorphic mapped type keeps each row's comment.
export type Inputs = { -readonly [Name in keyof typeof inputs]: ValueOf<(typeof inputs)[Name]> }

/** The inputs as rows, for the loops that read them. */
export const inputRows = Object.entries(inputs) as [InputName, Input][]
