import fc from 'fast-check'
import type { Address } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { fromUnits, type Sandbox } from '../src/index.js'
import {
  capture,
  createSession,
  getSession,
  publicClient,
  snapshot,
  start,
  waitUntil,
} from './helpers.js'

/**
 * Model-based property test: random sessions get random sequences of payments (partial,
 * exact, over, in the other accepted token, in a token the session does not take) and of
 * partial/final captures, and sometimes expire. After every step the sandbox's answer and
 * the chain must match a small model; on chain, what the payers lost equals what the OTW
 * and the treasury gained (conservation), and captured never exceeds received.
 */

type Symbol = 'USDC' | 'USDT' | 'EURC'
const WINDOW = 3600

let sb: Sandbox
beforeAll(async () => {
  sb = await start({ fundingWindowSeconds: WINDOW })
})
afterAll(() => sb?.stop())

type Action =
  | {
      kind: 'pay'
      pick: 'main' | 'alt' | 'wrong'
      size: 'rest' | number
      jitter: number
      payer: number
    }
  | { kind: 'capture'; pct: number; final: boolean }
  | { kind: 'expire' }

const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('pay' as const),
      pick: fc.constantFrom('main', 'main', 'main', 'alt', 'wrong') as fc.Arbitrary<
        'main' | 'alt' | 'wrong'
      >,
      size: fc.oneof(
        fc.constant('rest' as const),
        fc.integer({ min: 1, max: 99 }),
        fc.integer({ min: 100, max: 150 }),
      ),
      jitter: fc.integer({ min: 0, max: 9999 }),
      payer: fc.integer({ min: 0, max: 2 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('capture' as const),
      pct: fc.integer({ min: 1, max: 120 }),
      final: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'expire' as const }) },
)

const scenario = fc.record({
  currency: fc.constantFrom('USD', 'EUR'),
  cents: fc.integer({ min: 1, max: 5000 }),
  actions: fc.array(action, { minLength: 1, maxLength: 6 }),
})

interface Model {
  status: string
  amount: bigint
  accepted: Symbol[]
  fundingToken: Symbol | undefined
  refundTo: number | undefined
  /** Counted so far, per token, before funding. */
  counted: Record<Symbol, bigint>
  /** Counted transfers per (token, payer), to know whom to pay back. */
  countedBy: { token: Symbol; payer: number; value: bigint }[]
  shownReceived: bigint
  capturable: bigint
  captured: bigint
  otw: Record<Symbol, bigint>
  treasury: Record<Symbol, bigint>
  /** Per payer index, per token: balance change. */
  payers: Record<Symbol, bigint>[]
  paid: Record<Symbol, bigint>
}

const SYMBOLS: Symbol[] = ['USDC', 'USDT', 'EURC']
const zero = () => ({ USDC: 0n, USDT: 0n, EURC: 0n })
const TERMINAL = ['SUCCEEDED', 'CANCELED', 'ERROR']

function sendBack(m: Model, token: Symbol, payer: number, value: bigint) {
  m.otw[token] -= value
  m.payers[payer]![token] += value
}

function applyPayment(m: Model, token: Symbol, payer: number, value: bigint) {
  m.paid[token] += value
  m.payers[payer]![token] -= value
  m.otw[token] += value
  const funded = m.status === 'FUNDED' || m.status === 'CAPTURING'
  const counts =
    !TERMINAL.includes(m.status) &&
    m.accepted.includes(token) &&
    (!funded || m.fundingToken === token)
  if (!counts) return sendBack(m, token, payer, value)
  if (funded) {
    m.shownReceived += value
    m.capturable += value
    return
  }
  m.counted[token] += value
  m.countedBy.push({ token, payer, value })
  m.shownReceived = m.counted[token]
  m.status = 'PENDING'
  if (m.counted[token] >= m.amount) {
    m.status = 'FUNDED'
    m.fundingToken = token
    m.refundTo = payer
    m.capturable = m.counted[token]
    for (const c of m.countedBy) if (c.token !== token) sendBack(m, c.token, c.payer, c.value)
  }
}

async function readChain(owners: Record<string, Address>) {
  const out: Record<Symbol, Record<string, bigint>> = {} as any
  for (const t of SYMBOLS) out[t] = await snapshot(sb, sb.tokens[t].address, owners)
  return out
}

test('random payments and captures: the chain always balances and nothing is over-captured', async () => {
  const payers = sb.customers.slice(0, 3)
  await fc.assert(
    fc.asyncProperty(scenario, async ({ currency, cents, actions }) => {
      const amount = fromUnits(BigInt(cents) * 10_000n, 6)
      const s = await createSession(sb, { amount, currency })
      const id = s.paymentSessionId
      const owners: Record<string, Address> = {
        otw: s.oneTimeWalletAddress,
        treasury: sb.treasury,
        ...Object.fromEntries(payers.map((p, i) => [`p${i}`, p.address])),
      }
      const b0 = await readChain(owners)
      const m: Model = {
        status: 'CREATED',
        amount: BigInt(cents) * 10_000n,
        accepted: s.acceptedTokens,
        fundingToken: undefined,
        refundTo: undefined,
        counted: zero(),
        countedBy: [],
        shownReceived: 0n,
        capturable: 0n,
        captured: 0n,
        otw: zero(),
        treasury: zero(),
        payers: payers.map(zero),
        paid: zero(),
      }
      const main: Symbol = currency === 'USD' ? 'USDC' : 'EURC'
      const alt: Symbol = currency === 'USD' ? 'USDT' : 'USDT'
      const wrong: Symbol = currency === 'USD' ? 'EURC' : 'USDC'

      /** Waits until the sandbox and the chain agree with the model, then checks the invariants. */
      const settle = async (step: string) => {
        const expected = {
          status: m.status,
          receivedAmount: fromUnits(m.shownReceived, 6),
          capturableAmount: fromUnits(m.capturable, 6),
          capturedAmount: fromUnits(m.captured, 6),
        }
        const chainExpected = Object.fromEntries(
          SYMBOLS.map((t) => [
            t,
            {
              otw: m.otw[t],
              treasury: m.treasury[t],
              ...Object.fromEntries(m.payers.map((p, i) => [`p${i}`, p[t]])),
            },
          ]),
        )
        const [session, chain] = await waitUntil(
          async () => {
            const now = await readChain(owners)
            const delta = Object.fromEntries(
              SYMBOLS.map((t) => [
                t,
                Object.fromEntries(Object.keys(owners).map((k) => [k, now[t][k]! - b0[t][k]!])),
              ]),
            )
            return [await getSession(sb, id), delta] as const
          },
          ([sess, delta]) =>
            Object.entries(expected).every(([k, v]) => sess[k] === v) &&
            JSON.stringify(delta, big) === JSON.stringify(chainExpected, big),
          10_000,
          `${step} (model ${JSON.stringify({ expected, chainExpected }, big)})`,
        )
        for (const t of SYMBOLS) {
          const d = chain[t] as Record<string, bigint>
          const payersDelta = payers.reduce((sum, _, i) => sum + d[`p${i}`]!, 0n)
          // Conservation: OTW + treasury gained exactly what the payers lost.
          expect(d.otw! + d.treasury! + payersDelta).toBe(0n)
          // What was paid is in the OTW, at the treasury, or back with a payer.
          const returned = m.paid[t] + payersDelta
          expect(d.otw! + d.treasury! + returned).toBe(m.paid[t])
          expect(d.otw!).toBeGreaterThanOrEqual(0n)
        }
        // Never over-captured: by the sandbox's own account and on chain.
        expect(toUnits6(session.capturedAmount)).toBeLessThanOrEqual(
          toUnits6(session.receivedAmount),
        )
        for (const t of SYMBOLS) {
          const d = chain[t] as Record<string, bigint>
          expect(d.treasury!).toBe(t === m.fundingToken ? m.captured : 0n)
          expect(d.treasury!).toBeLessThanOrEqual(m.paid[t])
        }
        expect(
          session.captures
            .filter((c: any) => c.status === 'CAPTURED')
            .reduce((sum: bigint, c: any) => sum + toUnits6(c.captureAmount), 0n),
        ).toBe(m.captured)
      }

      for (const [i, a] of actions.entries()) {
        const step = `step ${i} ${JSON.stringify(a)}`
        if (a.kind === 'pay') {
          const token = a.pick === 'main' ? main : a.pick === 'alt' ? alt : wrong
          let value: bigint
          if (a.size === 'rest') {
            const rest = m.amount - m.counted[token]
            value = rest > 0n ? rest : 1n
          } else value = (m.amount * BigInt(a.size)) / 100n + BigInt(a.jitter)
          if (value <= 0n) value = 1n
          const hash = await sb.pay(id, {
            token,
            amount: fromUnits(value, 6),
            from: payers[a.payer]!.privateKey,
          })
          await publicClient(sb).waitForTransactionReceipt({ hash })
          applyPayment(m, token, a.payer, value)
        } else if (a.kind === 'capture') {
          const want = (m.capturable * BigInt(a.pct)) / 100n || 1n
          const res = await capture(sb, id, {
            requestId: `c${i}`,
            captureAmount: fromUnits(want, 6),
            isFinalCapture: a.final,
          })
          if (m.status !== 'FUNDED') {
            expect(res.status, step).toBe(409)
          } else if (want > m.capturable) {
            expect(res.status, step).toBe(422)
            expect(res.json.error.code).toBe('AMOUNT_EXCEEDS_CAPTURABLE')
          } else {
            expect(res.status, step).toBe(202)
            const ft = m.fundingToken!
            m.captured += want
            m.capturable -= want
            m.otw[ft] -= want
            m.treasury[ft] += want
            if (a.final && m.capturable > 0n) sendBack(m, ft, m.refundTo!, m.capturable)
            if (a.final) m.capturable = 0n
            m.status = m.capturable === 0n ? 'SUCCEEDED' : 'FUNDED'
          }
        } else {
          sb.clock.advance(WINDOW + 1)
          if (m.status === 'CREATED' || m.status === 'PENDING') {
            m.status = 'CANCELED'
            for (const c of m.countedBy) sendBack(m, c.token, c.payer, c.value)
            m.countedBy = []
          }
        }
        await settle(step)
      }
      // Leave nothing open that a later run's clock move could touch.
      if (m.status === 'CREATED' || m.status === 'PENDING') {
        sb.clock.advance(WINDOW + 1)
        m.status = 'CANCELED'
        for (const c of m.countedBy) sendBack(m, c.token, c.payer, c.value)
        await settle('final expiry')
      }
    }),
    {
      numRuns: Number(process.env.PROPERTY_RUNS ?? 18),
      endOnFailure: true,
      // Always-run cases for the paths random runs reach rarely.
      examples: [
        [
          {
            currency: 'USD',
            cents: 1000,
            actions: [
              { kind: 'pay', pick: 'alt', size: 30, jitter: 0, payer: 1 },
              { kind: 'pay', pick: 'main', size: 'rest', jitter: 0, payer: 0 },
              { kind: 'pay', pick: 'main', size: 20, jitter: 5, payer: 2 },
              { kind: 'capture', pct: 50, final: false },
              { kind: 'capture', pct: 40, final: true },
              { kind: 'pay', pick: 'main', size: 10, jitter: 0, payer: 1 },
            ],
          },
        ],
        [
          {
            currency: 'EUR',
            cents: 2550,
            actions: [
              { kind: 'pay', pick: 'main', size: 60, jitter: 1, payer: 2 },
              { kind: 'pay', pick: 'wrong', size: 100, jitter: 0, payer: 0 },
              { kind: 'capture', pct: 10, final: false },
              { kind: 'expire' },
              { kind: 'pay', pick: 'main', size: 'rest', jitter: 0, payer: 2 },
            ],
          },
        ],
      ],
    },
  )
}, 120_000)

const big = (_: string, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)
const toUnits6 = (a: string) => {
  const [w, f = ''] = a.split('.')
  return BigInt(w + f.padEnd(6, '0'))
}
