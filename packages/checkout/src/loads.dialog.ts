import { type CheckoutPaths, pathsFrom } from '@paysession/core'
import type { CreateConnectorFn } from '@wagmi/core'
import type { CSSResult } from 'lit'
import { type WalletAttributes, type WalletKindEntry, walletKinds } from './wallets/kinds.js'

// What the dialog loads when (the rows of loads.ts's table after the dialog's own): this module
// is in the dialog's chunk, so the first file carries none of it. Each part is a lazy chunk.

/** What a lazily loaded view needs of its element: a re-render once it arrives, its styles. */
export interface LoadingHost {
  requestUpdate(): void
  addStyles(styles: CSSResult): void
}

/** A chunk fetched on first use: undefined until it has arrived, then the element re-renders. */
function lazy<M>(load: () => Promise<M>) {
  let loaded: M | undefined
  return (host: LoadingHost) => {
    if (!loaded)
      void load().then((module) => {
        loaded = module
        host.requestUpdate()
      })
    return loaded
  }
}

const rare = lazy(() => import('./components/checkout/checkout.manual.js'))

/**
 * The views of the manual payment, of a browser without a wallet, of a pairing by URI and of the
 * two rare steps (checkout.manual.ts), when the dialog first shows one: undefined until loaded.
 */
export function lazyViews(host: LoadingHost) {
  const views = rare(host)
  // The views' styles join each element's shadow root the first time that element shows them.
  if (views) host.addStyles(views.manualStyles)
  return views
}

/** The gasless path's button, when a step offers it: only with `relay-url` and a token that allows it. */
export const gaslessView = lazy(() => import('./paths/gasless/gasless.js'))

/**
 * Core's rarer paths (recovery, gasless, call bundles), when the checkout first takes one: one
 * chunk, not one per path. Lazy chunks that share code with the dialog make the bundler move that
 * code out of the dialog into common chunks, which every payment would then load.
 */
export const paths: CheckoutPaths = pathsFrom(() => import('@paysession/core/paths'))

/**
 * The connectors of the wallet kinds the page turned on, when a checkout starts; undefined when
 * none is on. A kind's `import()` is its entry's (`provideWallet`, wallets/kinds.ts). A kind this
 * build lacks, or whose chunk cannot load, is left out: the other wallets and the manual payment
 * remain.
 */
export function loadWallets(h: WalletAttributes): Promise<CreateConnectorFn[]> | undefined {
  const on: WalletKindEntry<unknown>[] = Object.values(walletKinds).filter((kind) =>
    kind.options(h),
  )
  if (!on.length) return undefined
  const loading = on.map(({ name, options, load }) =>
    // The single-file build, or npm without `import '@paysession/checkout/<kind>'`.
    !load
      ? (console.warn(`paysession-checkout: no ${name} in this build`) ?? [])
      : load().then(
          (module) => [module.connector(options(h)!)],
          (error) => console.warn(`paysession-checkout: ${name} did not load`, error) ?? [],
        ),
  )
  return Promise.all(loading).then((lists) => lists.flat())
}
