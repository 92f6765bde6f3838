export * from './kinds.js'

import { provideWallet, type WalletKind, walletKinds } from './kinds.js'

// The chunked script-tag build (vite.config.ts): each kind's connector is its own file beside the
// dialog, `<kind>.js` (built apart by scripts/build-cdn.mjs, so that it moves no shared code out
// of the dialog), fetched only by a checkout that turns the kind on. The single-file build keeps
// kinds.ts without loaders.
for (const kind of Object.keys(walletKinds) as WalletKind[])
  provideWallet(
    kind,
    () => import(/* @vite-ignore */ import.meta.url.replace(/[^/]*$/, `${kind}.js`)),
  )
