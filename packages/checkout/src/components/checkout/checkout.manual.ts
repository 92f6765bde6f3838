// The views loaded when first used, as one lazy chunk (loads.dialog.ts): the manual payment and
// the no-wallet links (with the QR encoder), a pairing by URI, and the two rare steps. The default
// payment, with a wallet, loads none of them.

export { manual } from '../../paths/manual/manual.js'
export { manualStyles } from './checkout.manual.styles.js'
export { noWallet, walletLinks } from './steps/noWallet.js'
export { pairing } from './steps/pairing.js'
export { promptElsewhere } from './steps/promptElsewhere.js'
export { untracked } from './steps/untracked.js'
