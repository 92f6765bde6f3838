import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  checkPreviousPayment,
  createMemoryStorage,
  getSession,
  readPaymentRecord,
} from '../src/exports/index.js'
import { type PaymentRecord, writePaymentRecord } from '../src/utils/paymentRecord.js'
import {
  anvilRpc,
  createSession,
  mockWagmi,
  paySessionConfig,
  type Sandbox,
  startSandbox,
} from './support.js'

// Never twice for the payments that are not one plain transaction: a signed EIP-3009
// authorization, and a wallet that accepted the payment but has not sent it (a Safe, a bundler).
let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0, chainPort: 0, quiet: true })
})
afterAll(() => sb?.stop())

async function setup(patch: Partial<PaymentRecord>) {
  const storage = createMemoryStorage()
  const config = paySessionConfig(sb, mockWagmi(sb, sb.customers[2]!.address), { storage })
  const created = await createSession(sb)
  const session = await getSession(config, {
    sessionId: created.paymentSessionId,
    sessionToken: created.paymentSessionToken,
  })
  writePaymentRecord(storage, {
    version: 1,
    sessionId: created.paymentSessionId,
    state: 'ended',
    chainId: 31337,
    token: 'USDC',
    tokenAddress: sb.tokens.USDC.address,
    from: sb.customers[2]!.address,
    to: created.oneTimeWalletAddress,
    amount: '10000000',
    fromBlock: '0',
    // Long past any prompt's staleAfter: only the record's kind can still block.
    createdAt: Date.now() - 3_600_000,
    ...patch,
  })
  return { config, session, storage, created }
}

test('a wallet that has not sent yet blocks a new payment however long it takes', async () => {
  const { config, session } = await setup({ state: 'awaitingWallet' })
  expect(await checkPreviousPayment(config, { session })).toMatchObject({
    kind: 'inFlight',
    reason: 'walletPending',
  })
})

test('a signed authorization blocks until it expires, then a payment is allowed again', async () => {
  const now = Math.floor(Date.now() / 1000)
  const live = await setup({ validBefore: String(now + 600) })
  expect(await checkPreviousPayment(live.config, { session: live.session })).toMatchObject({
    kind: 'inFlight',
    reason: 'prompting',
  })
  const expired = await setup({ validBefore: String(now - 1) })
  expect(await checkPreviousPayment(expired.config, { session: expired.session })).toEqual({
    kind: 'none',
  })
  expect(readPaymentRecord(expired.storage, expired.session.paymentSessionId)).toBeUndefined()
})

test('once the transfer shows on chain, the waiting payment resumes with its hash', async () => {
  const { config, session, storage, created } = await setup({ state: 'awaitingWallet' })
  const hash = await sb.pay(created.paymentSessionId, { from: sb.customers[2]!.privateKey })
  // The send can return before its block is in: the check runs once the transfer is on chain.
  await expect.poll(() => anvilRpc(sb, 'eth_getTransactionReceipt', [hash])).not.toBeNull()
  const previous = await checkPreviousPayment(config, { session })
  expect(previous).toMatchObject({ kind: 'inFlight', reason: 'transferFound', hash })
  expect(readPaymentRecord(storage, created.paymentSessionId)?.hash).toBe(hash)
})
