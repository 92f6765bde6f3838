import { gaslessView } from '../../loads.dialog.js'
import type { PathView } from '../pathView.js'

/**
 * Paying without network fees (EIP-3009, the merchant's relay): a button on the review, first when
 * the wallet has no coin for gas, and a note in the no-gas notice naming the tokens that can.
 * Its code is a lazy chunk (./gasless.ts), fetched as soon as a token offers the path.
 */
export const gasless: PathView = {
  button: {
    offered: ({ state }) => state.gasless,
    leads: ({ state }) => state.gasWarning,
    render: ({ ctl, host, t }, primary) => gaslessView(host)?.gaslessButton(ctl, t, primary),
  },
  gasNote: ({ host, state, t }) => {
    const free = state.tokens.filter((token) => token.gasless && token.sufficient)
    if (!free.length) return undefined
    const symbols = free.map((token) => token.symbol)
    return gaslessView(host)?.gaslessNote(t, symbols, host.resolvedLocale)
  },
  // As soon as a token offers it, so that the review shows its button from the start.
  preload: ({ host, state }) => {
    if (state.tokens.some((token) => token.gasless)) gaslessView(host)
  },
}
