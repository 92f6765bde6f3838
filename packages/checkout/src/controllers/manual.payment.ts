import { parseAmount, resolveSessionAssets } from '@paysession/core'
import { eip681Transfer } from '../qr/eip681.js'
import type { CheckoutController } from './checkout.controller.js'

// The manual payment's side of the checkout controller: only the manual view (a lazy chunk) asks
// for it, so it loads with that view instead of with the dialog.

/** The manual payment: the stablecoins offered, the one shown, and its EIP-681 transfer request. */
export type ManualPayment = { symbols: string[]; symbol: string; uri: string | undefined }

/** What the manual step shows: its stablecoin (the session's until one is chosen) and link. */
export function manualPayment(ctl: Readonly<CheckoutController>): ManualPayment {
  const session = ctl.state?.session
  const to = session?.oneTimeWalletAddress
  let symbol = ctl.manualToken ?? session?.tokenSymbol ?? ''
  let symbols: string[] = []
  let uri: string | undefined
  try {
    const { network, tokens } = resolveSessionAssets(ctl.registry!, session ?? {})
    symbols = tokens.map((x) => x.symbol)
    const token = tokens.find((x) => x.symbol === symbol) ?? tokens[0]!
    symbol = token.symbol
    if (to)
      uri = eip681Transfer({
        token: token.address,
        chainId: network.chainId,
        to,
        units: parseAmount(session!.amount, token.decimals),
      })
  } catch {
    // Unknown network or token: the address alone still lets the customer pay.
  }
  return { symbols, symbol, uri }
}
