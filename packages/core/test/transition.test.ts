import { type PaySessionErrorCode, sessionStatuses } from '@paysession/protocol'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { buttonStatus } from '../src/checkout/buttonStatus.js'
import {
  inFlightSteps,
  isInFlight,
  isStepIn,
  lockedSteps,
  offerSteps,
  paidSteps,
} from '../src/checkout/steps.js'
import {
  type CheckoutEvent,
  type CheckoutMachine,
  canPay,
  initialMachine,
  retryAction,
  transition,
} from '../src/checkout/transition.js'
import type { CheckoutStep } from '../src/checkout/types.js'

// The checkout's transition function, exhaustively: every state × every event, no chain, no
// browser. createCheckout changes the step only through it (src/checkout/createCheckout.ts).

// Records keyed by the union: the compiler refuses one that misses a step or an event type.
const everyStep: Record<CheckoutStep, true> = {
  loading: true,
  chooseWallet: true,
  connecting: true,
  chooseToken: true,
  review: true,
  confirmInWallet: true,
  waitingForWallet: true,
  submitted: true,
  confirming: true,
  waitingForService: true,
  paid: true,
  completed: true,
  expired: true,
  failed: true,
  manual: true,
  untracked: true,
}
const everyEvent: Record<CheckoutEvent['type'], true> = {
  load: true,
  session: true,
  fail: true,
  nothingPending: true,
  previous: true,
  walletNeeded: true,
  walletDisconnected: true,
  tokensLoaded: true,
  connect: true,
  connectFailed: true,
  disconnect: true,
  selectToken: true,
  pay: true,
  payEnded: true,
  walletAccepted: true,
  hash: true,
  reported: true,
  mined: true,
  retryByLoading: true,
  tokenRefused: true,
  chainFunded: true,
  windowClosed: true,
  transferFailed: true,
  payFailed: true,
  manual: true,
  retry: true,
}
const steps = [
  'loading',
  'chooseWallet',
  'connecting',
  'chooseToken',
  'review',
  'confirmInWallet',
  'waitingForWallet',
  'submitted',
  'confirming',
  'waitingForService',
  'paid',
  'completed',
  'expired',
  'failed',
  'manual',
  'untracked',
] as const satisfies readonly CheckoutStep[]
const payCodes = [
  'USER_REJECTED',
  'WRONG_NETWORK',
  'WALLET_ERROR',
  'INSUFFICIENT_BALANCE',
  'WALLET_NOT_CONNECTED',
  'PAYMENT_IN_PROGRESS',
  'TRANSACTION_FAILED',
  'TRANSFER_MISMATCH',
  'SESSION_EXPIRED',
  'SESSION_TOKEN_EXPIRED',
  'API_UNAVAILABLE',
  'CHAIN_UNAVAILABLE',
] as const satisfies readonly PaySessionErrorCode[]
const reasons = [
  'walletPending',
  'prompting',
  'hashPending',
  'hashMined',
  'transferFound',
  'otwFunded',
] as const

const events: CheckoutEvent[] = [
  { type: 'load' },
  ...sessionStatuses.map((status) => ({ type: 'session' as const, status })),
  { type: 'fail', expired: true },
  { type: 'fail', expired: false },
  { type: 'nothingPending' },
  ...reasons.map((reason) => ({ type: 'previous' as const, reason })),
  { type: 'walletNeeded' },
  { type: 'walletDisconnected' },
  { type: 'tokensLoaded', direct: false },
  { type: 'tokensLoaded', direct: true },
  { type: 'connect' },
  { type: 'connect', walletId: 'injected' },
  { type: 'connectFailed' },
  { type: 'disconnect' },
  { type: 'selectToken', sufficient: true },
  { type: 'selectToken', sufficient: false },
  { type: 'pay', path: 'wallet' },
  { type: 'pay', path: 'gasless' },
  { type: 'payEnded' },
  { type: 'walletAccepted' },
  { type: 'hash' },
  { type: 'reported' },
  { type: 'mined' },
  { type: 'retryByLoading' },
  { type: 'tokenRefused', known: true },
  { type: 'tokenRefused', known: false },
  { type: 'chainFunded' },
  { type: 'windowClosed' },
  { type: 'transferFailed' },
  ...payCodes.flatMap((code) =>
    [false, true].flatMap((recorded) =>
      [false, true].map((hash) => ({ type: 'payFailed' as const, code, recorded, hash })),
    ),
  ),
  { type: 'manual' },
  { type: 'retry' },
]
const machines: CheckoutMachine[] = steps.flatMap((step) =>
  (['load', 'connect', 'pay'] as const).flatMap((lastAction) =>
    [false, true].flatMap((pending) =>
      [false, true].flatMap((busy) =>
        [false, true].map((settled) => ({ step, lastAction, pending, busy, settled })),
      ),
    ),
  ),
)
const cases = machines.flatMap((machine) => events.map((event) => [machine, event] as const))

const userEvents: CheckoutEvent['type'][] = [
  'connect',
  'disconnect',
  'selectToken',
  'pay',
  'manual',
]

describe('every state × every event', () => {
  test(`${machines.length} states × ${events.length} events`, () => {
    // Every step and every kind of event the types declare (a new one fails here until listed).
    expect(new Set(machines.map((machine) => machine.step))).toEqual(
      new Set(Object.keys(everyStep)),
    )
    expect(new Set(events.map((event) => event.type))).toEqual(new Set(Object.keys(everyEvent)))
    for (const [machine, event] of cases) {
      const frozen = Object.freeze({ ...machine })
      const next = transition(frozen, event)
      expect(steps).toContain(next.step)
      // Pure: the same answer twice, the input untouched.
      expect(transition(frozen, event)).toEqual(next)
      expect(frozen).toEqual(machine)

      if (event.type === 'session') continue
      // The end of a payment attempt clears `busy` and nothing else, settled or not.
      if (event.type === 'payEnded') {
        expect(next).toEqual({ ...machine, busy: false })
        continue
      }
      // One payment attempt at a time: the customer's other actions wait for it.
      if (
        machine.busy &&
        ['pay', 'disconnect', 'walletDisconnected', 'manual', 'retry'].includes(event.type)
      )
        expect(next).toBe(frozen)
      // Settled (paid, completed, expired, the service's ERROR): only the service moves it.
      if (machine.settled) expect(next).toBe(frozen)
      // A payment on its way: nothing the customer does changes the step.
      if (isInFlight(machine.step) && userEvents.includes(event.type))
        expect(next.step).toBe(machine.step)
      // Paying starts a transfer only from review, with nothing pending.
      const started = next.step === 'confirmInWallet' && machine.step !== 'confirmInWallet'
      expect(started).toBe(event.type === 'pay' && canPay(machine))
      if (started && event.type === 'pay')
        expect(next).toMatchObject({
          pending: true,
          busy: true,
          lastAction: 'pay',
          lastPath: event.path,
        })
      if (event.type === 'connect' && next.step === 'connecting' && machine.step !== 'connecting')
        expect(next.lastWalletId).toBe(event.walletId)
    }
  })

  test('which steps allow what', () => {
    const allowed = (type: 'connect' | 'disconnect' | 'pay' | 'manual' | 'selectToken') =>
      steps.filter((step) => {
        const settled = ['paid', 'completed', 'expired'].includes(step)
        const machine: CheckoutMachine = { ...initialMachine, step, settled }
        const event: CheckoutEvent =
          type === 'selectToken'
            ? { type, sufficient: true }
            : type === 'pay'
              ? { type, path: 'wallet' }
              : { type }
        return transition(machine, event) !== machine
      })
    expect(allowed('pay')).toEqual(['review'])
    expect(allowed('connect')).toEqual(['chooseWallet', 'chooseToken', 'review', 'manual'])
    expect(allowed('manual')).toEqual(['chooseWallet', 'chooseToken', 'review'])
    expect(allowed('selectToken')).toEqual(['chooseToken', 'review'])
    expect(allowed('disconnect')).toEqual([
      'loading',
      'chooseWallet',
      'connecting',
      'chooseToken',
      'review',
      'failed',
      'untracked',
    ])
    // A failed connection is retried by connecting again.
    expect(
      transition({ ...initialMachine, step: 'failed', lastAction: 'connect' }, { type: 'connect' })
        .step,
    ).toBe('connecting')
    expect(inFlightSteps).toEqual([
      'confirmInWallet',
      'waitingForWallet',
      'submitted',
      'confirming',
      'waitingForService',
    ])
  })

  test('the service status decides the end steps, from any state', () => {
    const expected: Record<string, CheckoutStep | undefined> = {
      CREATED: undefined,
      PENDING: undefined,
      FUNDED: 'paid',
      CAPTURING: 'paid',
      SUCCEEDED: 'completed',
      CANCELED: 'expired',
      ERROR: 'failed',
    }
    for (const machine of machines)
      for (const status of sessionStatuses) {
        const next = transition(machine, { type: 'session', status })
        if (expected[status]) expect(next).toMatchObject({ step: expected[status], settled: true })
        else expect(next).toBe(machine)
      }
  })

  test('a refused token is never an expired payment', () => {
    for (const machine of machines.filter((m) => !m.settled))
      for (const known of [true, false]) {
        const next = transition(machine, { type: 'tokenRefused', known })
        const expected = !known ? 'failed' : machine.step === 'manual' ? 'manual' : 'untracked'
        expect(next).toMatchObject({ step: expected, settled: false, lastAction: 'load' })
      }
    const untracked: CheckoutMachine = { ...initialMachine, step: 'untracked' }
    expect(transition(untracked, { type: 'chainFunded' })).toMatchObject({
      step: 'paid',
      settled: true,
    })
    expect(transition(untracked, { type: 'windowClosed' })).toMatchObject({
      step: 'expired',
      settled: true,
    })
  })

  test('a failed payment: back to review only when nothing left', () => {
    const paying: CheckoutMachine = {
      ...initialMachine,
      step: 'confirmInWallet',
      lastAction: 'pay',
      pending: true,
    }
    const after = (code: PaySessionErrorCode, recorded: boolean, hash = false) =>
      transition(paying, { type: 'payFailed', code, recorded, hash })
    expect(after('USER_REJECTED', false)).toMatchObject({ step: 'review', pending: false })
    expect(after('USER_REJECTED', true)).toMatchObject({
      step: 'failed',
      pending: true,
      lastAction: 'load',
    })
    expect(after('WALLET_ERROR', true, true)).toMatchObject({ step: 'confirming', pending: true })
    expect(after('INSUFFICIENT_BALANCE', false)).toMatchObject({ step: 'chooseToken' })
    expect(after('WALLET_NOT_CONNECTED', false)).toMatchObject({ step: 'chooseWallet' })
    expect(after('PAYMENT_IN_PROGRESS', true)).toMatchObject({
      step: 'waitingForService',
      lastAction: 'load',
    })
    expect(after('TRANSACTION_FAILED', false)).toMatchObject({
      step: 'failed',
      pending: false,
      lastAction: 'pay',
    })
    expect(after('SESSION_EXPIRED', true)).toMatchObject({ step: 'expired', settled: true })
    expect(after('API_UNAVAILABLE', false)).toMatchObject({ step: 'failed', lastAction: 'load' })
    // Retrying a reverted transfer pays again from review; anything else reloads first.
    expect(retryAction(after('TRANSACTION_FAILED', false))).toBe('pay')
    expect(transition(after('TRANSACTION_FAILED', false), { type: 'retry' }).step).toBe('review')
    expect(retryAction(after('API_UNAVAILABLE', false))).toBe('load')
  })
})

describe('never twice', () => {
  /** Events that prove no transfer of this session is on its way. */
  const provesNothingPending = (event: CheckoutEvent) =>
    event.type === 'nothingPending' ||
    event.type === 'transferFailed' ||
    // No record: it is written before any prompt and kept while a transfer may have left.
    (event.type === 'payFailed' && !event.recorded && event.code !== 'PAYMENT_IN_PROGRESS')

  // Every event: first its type, evenly, then one of its variants; the types that lead to a
  // payment and away from it are drawn twice as often, so long paths to a second payment occur.
  const ofTypes = (types: CheckoutEvent['type'][]) =>
    fc
      .constantFrom(...types)
      .chain((type) => fc.constantFrom(...events.filter((e) => e.type === type)))
  const event = fc.oneof(
    { arbitrary: ofTypes([...new Set(events.map((e) => e.type))]), weight: 1 },
    {
      arbitrary: ofTypes([
        'tokensLoaded',
        'selectToken',
        'pay',
        'payFailed',
        'payEnded',
        'retry',
        'connect',
      ]),
      weight: 2,
    },
  )

  test('no sequence of events starts a second transfer while one may be pending', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 80, size: 'max' }), (sequence) => {
        let machine: CheckoutMachine = initialMachine
        let mayBePending = false
        let started = 0
        for (const event of sequence) {
          const next = transition(machine, event)
          if (next.step === 'confirmInWallet' && machine.step !== 'confirmInWallet') {
            expect(mayBePending).toBe(false)
            mayBePending = true
            started++
          } else if (provesNothingPending(event)) mayBePending = false
          machine = next
        }
        return started >= 0
      }),
      { numRuns: 3000 },
    )
  })

  test('the sequences reach payment, retries and a second payment after proof', () => {
    // Not vacuous: the generator's events do lead to paying, and to paying again once allowed.
    const path: CheckoutEvent[] = [
      { type: 'nothingPending' },
      { type: 'tokensLoaded', direct: false },
      { type: 'selectToken', sufficient: true },
      { type: 'pay', path: 'wallet' },
      { type: 'hash' },
      { type: 'pay', path: 'wallet' },
      { type: 'transferFailed' },
      { type: 'payEnded' },
      { type: 'retry' },
      { type: 'load' },
      { type: 'nothingPending' },
      { type: 'tokensLoaded', direct: false },
      { type: 'selectToken', sufficient: true },
      { type: 'pay', path: 'gasless' },
    ]
    const trail: CheckoutMachine[] = [initialMachine]
    for (const event of path) trail.push(transition(trail[trail.length - 1]!, event))
    expect(trail.map((m) => m.step)).toEqual([
      'loading',
      'loading',
      'chooseToken',
      'review',
      'confirmInWallet',
      'submitted',
      'submitted',
      'failed',
      'failed',
      'failed',
      'loading',
      'loading',
      'chooseToken',
      'review',
      'confirmInWallet',
    ])
  })
})

describe('the step groups and what the button says', () => {
  test('the groups: offer is where paying can start, paid ends it, locked is in flight or connecting', () => {
    for (const machine of machines) {
      if (canPay(machine)) expect(isStepIn(offerSteps, machine.step)).toBe(true)
      if (isStepIn(paidSteps, machine.step)) expect(canPay(machine)).toBe(false)
    }
    for (const step of lockedSteps)
      expect(step === 'connecting' || isStepIn(inFlightSteps, step)).toBe(true)
    expect(isStepIn(offerSteps, undefined)).toBe(false)
  })

  test('the button, before and after the checkout runs', () => {
    const open = { status: 'PENDING' as const }
    expect(buttonStatus({ priced: false })).toBe('payLoading')
    expect(buttonStatus({ session: open, priced: false })).toBe('payLoading')
    expect(buttonStatus({ session: open, priced: true })).toBe('pay')
    expect(buttonStatus({ session: open, priced: true, started: true })).toBe('inProgress')
    expect(
      buttonStatus({ session: { ...open, userSubmittedTransactionHash: '0x1' }, priced: true }),
    ).toBe('inProgress')
    expect(buttonStatus({ unavailable: true, priced: false })).toBe('unavailable')
    expect(buttonStatus({ session: { status: 'FUNDED' }, priced: true })).toBe('paid')
    expect(buttonStatus({ session: { status: 'CANCELED' }, priced: true })).toBe('expiredButton')
    // The checkout's step decides once it runs: a record read before says nothing then.
    expect(buttonStatus({ step: 'review', session: open, started: true, priced: true })).toBe('pay')
    for (const step of inFlightSteps)
      expect(buttonStatus({ step, session: open, inFlight: isInFlight(step), priced: true })).toBe(
        'inProgress',
      )
    expect(buttonStatus({ step: 'paid', session: open, priced: true })).toBe('paid')
    expect(buttonStatus({ step: 'untracked', session: open, priced: true })).toBe('untrackedButton')
    expect(buttonStatus({ step: 'expired', priced: false })).toBe('expiredButton')
    expect(buttonStatus({ step: 'failed', priced: false })).toBe('unavailable')
    // Another order's session: never "paid", never "pay".
    expect(
      buttonStatus({
        step: 'paid',
        session: { status: 'FUNDED' },
        errorCode: 'SESSION_MISMATCH',
        priced: true,
      }),
    ).toBe('unavailable')
  })
})
