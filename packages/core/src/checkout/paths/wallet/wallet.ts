import { payWithWallet } from '../../../actions/payWithWallet.js'
import type { PaymentPathEntry } from '../../handle.js'
import { transferAttempt } from '../../transferAttempt.js'
import { callsSender } from '../calls/calls.js'

/**
 * The default way to pay: one ERC-20 transfer from the connected wallet (`payWithWallet`), the
 * review's Pay button. A wallet reporting EIP-5792 capabilities gets it as a call bundle (the
 * calls path). Its code is the first payment's: nothing to load.
 */
export const wallet: PaymentPathEntry = {
  name: 'wallet',
  offered: () => true,
  run: (handle) =>
    transferAttempt(
      handle,
      wallet.name,
      (config, parameters) =>
        payWithWallet(config, { ...parameters, sendCalls: callsSender(handle) }),
      { early: true },
    ),
  view: 'review',
}
