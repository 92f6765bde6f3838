// The browser chain (ethereumjs), the hosted demo's largest part: its own lazy chunk, "chain".
export { createBrowserChain } from '@paysession/browser-chain'
