export type PaySessionWalletConnectedEventDetail = {
  address: `0x${string}`
  chainId: number | undefined
}
/**
 * The customer connected a wallet.
 * @example el.addEventListener('paysession-wallet-connected', (event) => console.log(event.detail))
 */
export class PaySessionWalletConnectedEvent extends CustomEvent<PaySessionWalletConnectedEventDetail> {
  constructor(detail: PaySessionWalletConnectedEventDetail) {
    super('paysession-wallet-connected', { bubbles: true, composed: true, detail })
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'paysession-wallet-connected': PaySessionWalletConnectedEvent
  }
}
