import { provideWallet } from '../kinds.js'

export type { WalletConnectOptions } from '../kinds.js'

// `import '@paysession/checkout/walletconnect'` once: a checkout with `wallet-connect-project-id`
// then offers WalletConnect. The connector's code stays a lazy chunk of your bundle, fetched only
// by such a checkout.
provideWallet('walletconnect', () => import('./connector.js'))
