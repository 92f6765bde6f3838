import type { PaySessionErrorCode, SessionStatus } from '@paysession/protocol'
import { isInFlight, isStepIn, offerSteps } from './steps.js'
import type { CheckoutStep } from './types.js'

// The checkout's behaviour as data: which step follows which event. Pure, so it is tested for
// every state and every event without a chain or a browser (test/transition.test.ts);
// the checkout session (CheckoutSession.ts) runs the effects (wallet prompts, requests, timers)
// around it and changes the step only through `transition`.

/** A customer paying by hand may still connect a wallet instead. */
const connectSteps: readonly CheckoutStep[] = [...offerSteps, 'manual']

/**
 * The machine's state. `Path` names the ways to pay (`PaymentPath` of the checkout session): the
 * machine only remembers which one was last taken, so a new path changes nothing here.
 */
export type CheckoutMachine<Path extends string = string> = {
  step: CheckoutStep
  /** What `retry()` repeats. */
  lastAction: 'load' | 'connect' | 'pay'
  /** The path the last payment took (`retry()` takes it again). */
  lastPath?: Path | undefined
  /** The wallet the last connection asked for (`retry()` asks it again). */
  lastWalletId?: string | undefined
  /**
   * A transfer may be on its way: set when a payment starts, cleared only by proof that nothing
   * moved (refused before anything was sent, reverted, or storage and chain show none).
   */
  pending: boolean
  /** A payment attempt runs (from the click until its action returns): one at a time. */
  busy: boolean
  /** Paid, completed, expired, or the service's ERROR: only the service's news changes the step. */
  settled: boolean
}

export type CheckoutEvent<Path extends string = string> =
  /** (Re)loading the session. */
  | { type: 'load' }
  /** The service's status of the session. */
  | { type: 'session'; status: SessionStatus }
  /** Loading or watching failed; `expired`: the session or its token ended. */
  | { type: 'fail'; expired: boolean }
  /** Storage and chain show no payment of this session on its way. */
  | { type: 'nothingPending' }
  /** A payment found on its way when loading. */
  | {
      type: 'previous'
      reason:
        | 'walletPending'
        | 'prompting'
        | 'hashPending'
        | 'hashMined'
        | 'transferFound'
        | 'otwFunded'
    }
  /** No wallet is connected (after loading, or it disconnected). */
  | { type: 'walletNeeded' }
  /** The wallet disconnected while the customer was choosing. */
  | { type: 'walletDisconnected' }
  /** Balances of the connected account are known; `direct`: one token, enough of it (to review). */
  | { type: 'tokensLoaded'; direct: boolean }
  | { type: 'connect'; walletId?: string | undefined }
  | { type: 'connectFailed' }
  | { type: 'disconnect' }
  | { type: 'selectToken'; sufficient: boolean }
  | { type: 'pay'; path: Path }
  /** The payment attempt's action returned (paid, failed, or handed to recovery). */
  | { type: 'payEnded' }
  /** The wallet accepted the payment and will send it later (a multisig, a bundler). */
  | { type: 'walletAccepted' }
  | { type: 'hash' }
  | { type: 'reported' }
  /** Sent and (for our own transfer) mined: the service has to see it now. */
  | { type: 'mined' }
  /** Following the session or a transfer failed: a retry loads again, which decides. */
  | { type: 'retryByLoading' }
  /**
   * The service refuses this page's token and no fresh one came; `known`: the session's amount
   * and address are known (from this page or storage), so the chain can be followed instead.
   */
  | { type: 'tokenRefused'; known: boolean }
  /** Followed on chain (token refused): the one-time wallet holds the amount. */
  | { type: 'chainFunded' }
  /** Followed on chain (token refused): the funding window closed without the amount. */
  | { type: 'windowClosed' }
  /** The transfer reverted, or was replaced by one that pays nothing. */
  | { type: 'transferFailed' }
  /** A payment attempt failed; `recorded`: a transfer may have left (the record was kept). */
  | { type: 'payFailed'; code: PaySessionErrorCode; recorded: boolean; hash: boolean }
  | { type: 'manual' }
  | { type: 'retry' }

export const initialMachine: CheckoutMachine<never> = {
  step: 'loading',
  lastAction: 'load',
  pending: false,
  busy: false,
  settled: false,
}

const statusSteps: Partial<Record<SessionStatus, CheckoutStep>> = {
  FUNDED: 'paid',
  CAPTURING: 'paid',
  SUCCEEDED: 'completed',
  CANCELED: 'expired',
  ERROR: 'failed',
}

/** The step a session status puts the checkout in, if it decides one. */
export const statusStep = (status: SessionStatus): CheckoutStep | undefined => statusSteps[status]

// A refused token is not an expired payment: the session sends `tokenRefused` for it instead.
const expiryCodes: readonly PaySessionErrorCode[] = ['SESSION_EXPIRED']

/** The one answer to "may the customer pay now?". */
export const canPay = (machine: CheckoutMachine): boolean =>
  machine.step === 'review' && !machine.pending && !machine.busy && !machine.settled

export const canConnect = (machine: CheckoutMachine): boolean =>
  !machine.settled &&
  (connectSteps.includes(machine.step) ||
    (machine.step === 'failed' && machine.lastAction === 'connect'))

export const canChoose = (machine: CheckoutMachine): boolean =>
  !machine.settled && isStepIn(offerSteps, machine.step)

/** What `retry()` does from here. */
export const retryAction = (machine: CheckoutMachine): CheckoutMachine['lastAction'] =>
  machine.lastAction === 'pay' && machine.step !== 'review' && machine.step !== 'failed'
    ? 'load'
    : machine.lastAction

const busyRefuses: readonly CheckoutEvent['type'][] = [
  'disconnect',
  'walletDisconnected',
  'manual',
  'retry',
]

export function transition<Path extends string>(
  machine: CheckoutMachine<Path>,
  event: CheckoutEvent<Path>,
): CheckoutMachine<Path> {
  const to = (
    step: CheckoutStep,
    patch: Partial<CheckoutMachine<Path>> = {},
  ): CheckoutMachine<Path> => ({
    ...machine,
    step,
    ...patch,
  })
  // The attempt ends whatever the service said meanwhile (settled included).
  if (event.type === 'payEnded') return machine.busy ? { ...machine, busy: false } : machine
  if (event.type === 'session') {
    const step = statusSteps[event.status]
    if (!step) return machine
    return to(step, { settled: true })
  }
  if (machine.settled) return machine
  // While a payment attempt runs, the customer's other actions wait for it to end.
  if (machine.busy && busyRefuses.includes(event.type)) return machine
  switch (event.type) {
    case 'load':
      return to('loading', { lastAction: 'load' })
    case 'fail':
      return event.expired ? to('expired', { settled: true }) : to('failed', { lastAction: 'load' })
    case 'nothingPending':
      return { ...machine, pending: false }
    case 'previous':
      if (event.reason === 'walletPending') return to('waitingForWallet', { pending: true })
      if (event.reason === 'prompting')
        return to('waitingForService', { pending: true, lastAction: 'load' })
      return to(event.reason === 'hashPending' ? 'confirming' : 'waitingForService', {
        pending: true,
      })
    case 'walletNeeded':
      return to('chooseWallet')
    case 'walletDisconnected':
      return machine.step === 'chooseToken' || machine.step === 'review'
        ? to('chooseWallet')
        : machine
    case 'tokensLoaded':
      if (isInFlight(machine.step) || machine.step === 'manual') return machine
      return to(event.direct ? 'review' : 'chooseToken')
    case 'connect':
      return canConnect(machine)
        ? to('connecting', { lastAction: 'connect', lastWalletId: event.walletId })
        : machine
    case 'connectFailed':
      return to('chooseWallet')
    case 'disconnect':
      return isInFlight(machine.step) || machine.step === 'manual' ? machine : to('chooseWallet')
    case 'selectToken':
      if (machine.step !== 'chooseToken' && machine.step !== 'review') return machine
      return to(event.sufficient ? 'review' : 'chooseToken')
    case 'pay':
      return canPay(machine)
        ? to('confirmInWallet', {
            lastAction: 'pay',
            lastPath: event.path,
            pending: true,
            busy: true,
          })
        : machine
    case 'walletAccepted':
      return to('waitingForWallet')
    case 'hash':
      return to('submitted')
    case 'reported':
      return machine.step === 'submitted' ? to('confirming') : machine
    case 'mined':
      return to('waitingForService')
    case 'retryByLoading':
      return { ...machine, lastAction: 'load' }
    case 'tokenRefused':
      if (!event.known) return to('failed', { lastAction: 'load' })
      // A customer paying by hand keeps the address; the chain is followed behind it.
      return machine.step === 'manual'
        ? { ...machine, lastAction: 'load' }
        : to('untracked', { lastAction: 'load' })
    case 'chainFunded':
      return to('paid', { settled: true })
    case 'windowClosed':
      return to('expired', { settled: true })
    case 'transferFailed':
      return to('failed', { pending: false, lastAction: 'load' })
    case 'payFailed':
      return payFailed(machine, event)
    case 'manual':
      return canChoose(machine) ? to('manual') : machine
    case 'retry':
      return retryAction(machine) === 'pay' ? to('review') : machine
  }
}

function payFailed<Path extends string>(
  machine: CheckoutMachine<Path>,
  event: Extract<CheckoutEvent, { type: 'payFailed' }>,
): CheckoutMachine<Path> {
  const to = (
    step: CheckoutStep,
    patch: Partial<CheckoutMachine<Path>> = {},
  ): CheckoutMachine<Path> => ({
    ...machine,
    step,
    pending: event.recorded,
    ...patch,
  })
  if (expiryCodes.includes(event.code)) return to('expired', { settled: true })
  switch (event.code) {
    case 'USER_REJECTED':
    case 'WRONG_NETWORK':
    case 'WALLET_ERROR':
      if (!event.recorded) return to('review')
      break
    case 'INSUFFICIENT_BALANCE':
    // The issuer refuses this token for this payment: another token may still pay it.
    case 'TOKEN_PAUSED':
    case 'PAYER_BLOCKED':
    case 'RECIPIENT_BLOCKED':
      return to('chooseToken')
    case 'WALLET_NOT_CONNECTED':
      return to('chooseWallet')
    case 'PAYMENT_IN_PROGRESS':
      return to('waitingForService', { lastAction: 'load', pending: true })
    case 'TRANSACTION_FAILED':
    case 'TRANSFER_MISMATCH':
      // Nothing moved (the action dropped its record): retrying pays again. A kept record
      // means reloading first, which asks the chain.
      return to('failed', event.recorded ? { lastAction: 'load' } : {})
  }
  // Anything else: a retry loads first, and with a record the chain decides before another payment.
  return to(event.hash ? 'confirming' : 'failed', { lastAction: 'load' })
}
