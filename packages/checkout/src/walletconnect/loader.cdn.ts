export * from './loader.js'

import { provideWalletConnect } from './loader.js'

// The chunked script-tag build (vite.config.ts): the connector is its own file beside the dialog,
// walletconnect.js (built apart by scripts/build-cdn.mjs, so that it moves no shared code out of
// the dialog), fetched only by a checkout with `wallet-connect-project-id`. The single-file build
// keeps the empty loader.
provideWalletConnect(
  () => import(/* @vite-ignore */ import.meta.url.replace(/[^/]*$/, 'walletconnect.js')),
)
