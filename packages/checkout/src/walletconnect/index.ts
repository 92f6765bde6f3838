import { provideWalletConnect } from './loader.js'

export type { WalletConnectOptions } from './loader.js'

// `import '@paysession/checkout/walletconnect'` once: a checkout with `wallet-connect-project-id`
// then offers WalletConnect. The connector's code stays a lazy chunk of your bundle, fetched only
// by such a checkout.
provideWalletConnect(() => import('./connector.js'))
