import {
  type Address,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  http,
  parseEther,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { erc20Abi, type Sandbox } from '../src/index.js'
import {
  api,
  capture,
  createSession,
  expectError,
  fundedSession,
  getCapture,
  getSession,
  publicClient,
  snapshot,
  start,
  units,
  waitForSession,
  waitUntil,
} from './helpers.js'

let sb: Sandbox
let call: ReturnType<typeof api>
beforeAll(async () => {
  sb = await start({ waitTimeout: 1500 })
  call = api(sb)
})
afterAll(() => sb?.stop())

const report = (s: { paymentSessionId: string; paymentSessionToken: string }, body: unknown) =>
  call('POST', `/api/v1/payment-sessions/${s.paymentSessionId}/funding-transaction`, {
    auth: s.paymentSessionToken,
    body,
  })

/** Balances of payer, treasury and the session's OTW for one token. */
const wallets = (s: { oneTimeWalletAddress: Address }, payer: Address, token: Address) => () =>
  snapshot(sb, token, { payer, treasury: sb.treasury, otw: s.oneTimeWalletAddress })

const diff = (a: Record<string, bigint>, b: Record<string, bigint>) =>
  Object.fromEntries(Object.keys(a).map((k) => [k, b[k]! - a[k]!]))

describe('CREATED → PENDING → FUNDED', () => {
  test('reporting a funding transaction moves CREATED to PENDING and records the hash', async () => {
    const s = await createSession(sb)
    expect(s.status).toBe('CREATED')
    // A hash the chain does not know yet (the wallet has only just signed it).
    const unknown = `0x${'ab'.repeat(32)}`
    const res = await report(s, { fundingTransactionHash: unknown })
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ success: true, status: 'PENDING' })
    const pending = await getSession(sb, s.paymentSessionId)
    expect(pending).toMatchObject({
      status: 'PENDING',
      userSubmittedTransactionHash: unknown,
      fundingTransactionHash: null,
      userAddress: null,
    })
    // Reporting the same hash again answers the same.
    expect((await report(s, { fundingTransactionHash: unknown })).json).toEqual(res.json)
    // The real transfer then funds it.
    const hash = await sb.pay(s.paymentSessionId)
    const funded = await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'FUNDED')
    expect(funded).toMatchObject({
      fundingTransactionHash: hash,
      userSubmittedTransactionHash: unknown,
      userAddress: sb.customers[0]!.address,
      capturableAmount: '10.00',
      receivedAmount: '10.00',
    })
  })

  test('an underpayment stays PENDING and shows receivedAmount; the rest funds it', async () => {
    const payer = sb.customers[1]!
    const s = await createSession(sb)
    await sb.pay(s.paymentSessionId, { amount: '4.25', from: payer.privateKey })
    const pending = await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'PENDING')
    expect(pending).toMatchObject({
      receivedAmount: '4.25',
      capturableAmount: '0.00',
      fundingTransactionHash: null,
      userAddress: payer.address,
    })
    // A capture is refused while underpaid.
    expectError(
      await capture(sb, s.paymentSessionId, { requestId: 'u', captureAmount: '4.25' }),
      409,
      'SESSION_NOT_CAPTURABLE',
    )
    const rest = await sb.pay(s.paymentSessionId, { amount: '5.75', from: payer.privateKey })
    const funded = await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'FUNDED')
    expect(funded).toMatchObject({
      receivedAmount: '10.00',
      capturableAmount: '10.00',
      fundingTransactionHash: rest,
      userAddress: payer.address,
    })
  })

  test('wait: true answers after processing with status FUNDED', async () => {
    const s = await createSession(sb, { amount: '3.00', currency: 'USD' })
    const hash = await sb.pay(s.paymentSessionId)
    const res = await report(s, { fundingTransactionHash: hash, wait: true })
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ success: true, status: 'FUNDED', processed: true })
    // No polling needed: the session is FUNDED the moment the answer arrives.
    const now = await getSession(sb, s.paymentSessionId)
    expect(now).toMatchObject({ status: 'FUNDED', fundingTransactionHash: hash })
    expect(now.userSubmittedTransactionHash).toBe(hash.toLowerCase())
    // Reporting again on a funded session still answers success.
    const again = await report(s, { fundingTransactionHash: hash, wait: true })
    expect(again.json).toMatchObject({ success: true, status: 'FUNDED' })
  })

  test('wait: true with a transaction that does not fund this session: 422, nothing recorded', async () => {
    const other = await createSession(sb)
    const s = await createSession(sb)
    const otherHash = await sb.pay(other.paymentSessionId)
    const before = await getSession(sb, s.paymentSessionId)
    const res = await report(s, { fundingTransactionHash: otherHash, wait: true })
    expectError(res, 422, 'TRANSACTION_DOES_NOT_FUND_SESSION')
    expect(await getSession(sb, s.paymentSessionId)).toEqual(before)
    // A transfer of a token this session does not accept (EURC to a USD session) does not fund it either.
    const eurc = await sb.pay(s.paymentSessionId, { token: 'EURC', amount: '10.00' })
    expectError(
      await report(s, { fundingTransactionHash: eurc, wait: true }),
      422,
      'TRANSACTION_DOES_NOT_FUND_SESSION',
    )
    expect((await getSession(sb, s.paymentSessionId)).status).toBe('CREATED')
  })

  test('wait: true with a reverted transaction: 422 TRANSACTION_REVERTED', async () => {
    const s = await createSession(sb)
    // A customer with no USDC sends a transfer with a fixed gas limit: mined, reverted.
    const poor = privateKeyToAccount(`0x${'42'.repeat(32)}`)
    await createTestClient({ mode: 'anvil', transport: http(sb.rpcUrl) }).setBalance({
      address: poor.address,
      value: parseEther('1'),
    })
    const wallet = createWalletClient({ account: poor, transport: http(sb.rpcUrl) })
    const hash = await wallet.sendTransaction({
      chain: null,
      to: sb.tokens.USDC.address,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'transfer',
        args: [s.oneTimeWalletAddress, units('10.00')],
      }),
      gas: 100_000n,
    })
    const receipt = await publicClient(sb).waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('reverted')
    const before = await getSession(sb, s.paymentSessionId)
    expectError(
      await report(s, { fundingTransactionHash: hash, wait: true }),
      422,
      'TRANSACTION_REVERTED',
    )
    expect(await getSession(sb, s.paymentSessionId)).toEqual(before)
  })

  test('wait: true with a transaction that never gets mined answers processed: false in bounded time', async () => {
    const s = await createSession(sb)
    const t0 = Date.now()
    const res = await report(s, { fundingTransactionHash: `0x${'cd'.repeat(32)}`, wait: true })
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ success: true, status: 'PENDING', processed: false })
    expect(Date.now() - t0).toBeLessThan(5000)
  })

  test('USDT and EURC sessions fund and capture with real transfers', async () => {
    const payer = sb.customers[2]!
    for (const [currency, token] of [
      ['USD', 'USDT'],
      ['EUR', 'EURC'],
    ] as const) {
      const s = await createSession(sb, { amount: '20.00', currency })
      const read = wallets(s, payer.address, sb.tokens[token].address)
      const b0 = await read()
      await sb.pay(s.paymentSessionId, { token, from: payer.privateKey })
      const funded = await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'FUNDED')
      expect(funded).toMatchObject({ tokenSymbol: token, capturableAmount: '20.00' })
      expect(
        (
          await capture(sb, s.paymentSessionId, {
            requestId: 'f',
            captureAmount: '15.00',
            isFinalCapture: true,
          })
        ).status,
      ).toBe(202)
      const done = await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'SUCCEEDED')
      expect(done.captures[0]).toMatchObject({ status: 'CAPTURED', refundAmount: '5.00' })
      expect(diff(b0, await read())).toEqual({
        payer: -units('15.00'),
        treasury: units('15.00'),
        otw: 0n,
      })
    }
  })
})

describe('captures', () => {
  test('FUNDED → CAPTURING → FUNDED (partial) → CAPTURING → SUCCEEDED (final), checked on chain', async () => {
    const payer = sb.customers[3]!
    const { created: s } = await fundedSession(sb, undefined, { from: payer.privateKey })
    const id = s.paymentSessionId
    const read = wallets(s, payer.address, sb.tokens.USDC.address)
    const b0 = await read()
    expect(b0.otw).toBe(units('10.00'))

    // Hold the chain still so the capture is observably in progress.
    const testClient = createTestClient({ mode: 'anvil', transport: http(sb.rpcUrl) })
    await testClient.setAutomine(false)
    let first: any
    try {
      first = await capture(sb, id, { requestId: 'p1', captureAmount: '2.50' })
      expect(first.status).toBe(202)
      expect(first.json.status).toBe('CAPTURING')
      const during = await getSession(sb, id)
      expect(during.status).toBe('CAPTURING')
      expect(during.capturableAmount).toBe('7.50')
      // A second capture must wait for the first.
      expectError(
        await capture(sb, id, { requestId: 'p2', captureAmount: '1.00' }),
        409,
        'SESSION_NOT_CAPTURABLE',
      )
    } finally {
      await testClient.setAutomine(true)
      await testClient.mine({ blocks: 1 })
    }
    const afterPartial = await waitForSession(
      sb,
      id,
      (x) => x.status === 'FUNDED' && x.captures[0].status === 'CAPTURED',
    )
    expect(afterPartial).toMatchObject({ capturedAmount: '2.50', capturableAmount: '7.50' })
    expect(diff(b0, await read())).toEqual({
      payer: 0n,
      treasury: units('2.50'),
      otw: -units('2.50'),
    })

    const final = await capture(sb, id, {
      requestId: 'p3',
      captureAmount: '5.00',
      isFinalCapture: true,
    })
    expect(final.status).toBe(202)
    expect(final.json).toMatchObject({
      status: 'CAPTURING',
      finalCapture: true,
      refundAmount: '2.50',
    })
    const done = await waitForSession(sb, id, (x) => x.status === 'SUCCEEDED')
    expect(done).toMatchObject({ capturedAmount: '7.50', capturableAmount: '0.00' })
    const c = await getCapture(sb, id, final.json.captureId)
    expect(c).toMatchObject({ status: 'CAPTURED', captureAmount: '5.00', refundAmount: '2.50' })
    expect(c.captureTransferTransactionHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(c.refundTransferTransactionHash).toMatch(/^0x[0-9a-f]{64}$/)
    const refund = await publicClient(sb).getTransactionReceipt({
      hash: c.refundTransferTransactionHash,
    })
    expect(refund.status).toBe('success')
    expect(diff(b0, await read())).toEqual({
      payer: units('2.50'),
      treasury: units('7.50'),
      otw: -units('10.00'),
    })
    // A finished session takes no more captures.
    expectError(
      await capture(sb, id, { requestId: 'p4', captureAmount: '0.01' }),
      409,
      'SESSION_NOT_CAPTURABLE',
    )
  })

  test('an overpayment is capturable and the rest is refunded by the final capture', async () => {
    const payer = sb.customers[4]!
    const s = await createSession(sb)
    const read = wallets(s, payer.address, sb.tokens.USDC.address)
    const b0 = await read()
    await sb.pay(s.paymentSessionId, { amount: '12.345678', from: payer.privateKey })
    const funded = await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'FUNDED')
    expect(funded).toMatchObject({ capturableAmount: '12.345678', receivedAmount: '12.345678' })
    // More than the amount but within what arrived: allowed.
    const res = await capture(sb, s.paymentSessionId, {
      requestId: 'o',
      captureAmount: '11.00',
      isFinalCapture: true,
    })
    expect(res.status).toBe(202)
    expect(res.json.refundAmount).toBe('1.345678')
    const done = await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'SUCCEEDED')
    expect(done.capturedAmount).toBe('11.00')
    expect(diff(b0, await read())).toEqual({
      payer: -units('11.00'),
      treasury: units('11.00'),
      otw: 0n,
    })
  })

  test('a further payment to a FUNDED session adds to what is capturable', async () => {
    const { created: s } = await fundedSession(sb)
    await sb.pay(s.paymentSessionId, { amount: '1.50' })
    const more = await waitForSession(sb, s.paymentSessionId, (x) => x.capturableAmount === '11.50')
    expect(more).toMatchObject({ status: 'FUNDED', receivedAmount: '11.50' })
  })

  test('a non-final capture of everything ends the session SUCCEEDED with no refund', async () => {
    const payer = sb.customers[1]!
    const { created: s } = await fundedSession(
      sb,
      { amount: '8.00', currency: 'USD' },
      { from: payer.privateKey },
    )
    const read = wallets(s, payer.address, sb.tokens.USDC.address)
    const b0 = await read()
    const res = await capture(sb, s.paymentSessionId, { requestId: 'all', captureAmount: '8.00' })
    expect(res.json).toMatchObject({ finalCapture: false, refundAmount: '0.00' })
    const done = await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'SUCCEEDED')
    expect(done).toMatchObject({ capturedAmount: '8.00', capturableAmount: '0.00' })
    expect(done.captures[0].refundTransferTransactionHash).toBeNull()
    expect(diff(b0, await read())).toEqual({
      payer: 0n,
      treasury: units('8.00'),
      otw: -units('8.00'),
    })
  })

  test('a capture whose transfer reverts: capture FAILED, session ERROR, no longer payable', async () => {
    const { created: s } = await fundedSession(sb)
    // Someone empties the OTW behind the sandbox's back (anvil impersonation).
    const testClient = createTestClient({ mode: 'anvil', transport: http(sb.rpcUrl) })
    await testClient.impersonateAccount({ address: s.oneTimeWalletAddress })
    await testClient.setBalance({ address: s.oneTimeWalletAddress, value: parseEther('1') })
    const thief = createWalletClient({
      account: s.oneTimeWalletAddress,
      transport: http(sb.rpcUrl),
    })
    const drained = await thief.writeContract({
      chain: null,
      address: sb.tokens.USDC.address,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [sb.customers[4]!.address, units('10.00')],
    })
    await publicClient(sb).waitForTransactionReceipt({ hash: drained })
    await testClient.stopImpersonatingAccount({ address: s.oneTimeWalletAddress })

    const res = await capture(sb, s.paymentSessionId, {
      requestId: 'doomed',
      captureAmount: '10.00',
    })
    expect(res.status).toBe(202)
    const failed = await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'ERROR')
    expect(failed.captures[0].status).toBe('FAILED')
    expect(failed.capturedAmount).toBe('0.00')
    expectError(
      await report(s, { fundingTransactionHash: `0x${'1'.repeat(64)}` }),
      409,
      'SESSION_NOT_PAYABLE',
    )
    expectError(
      await capture(sb, s.paymentSessionId, { requestId: 'again', captureAmount: '1.00' }),
      409,
      'SESSION_NOT_CAPTURABLE',
    )
  })
})

describe('funds that cannot count are sent back', () => {
  test('a token the session does not accept is returned and does not fund it', async () => {
    const payer = sb.customers[2]!
    const s = await createSession(sb)
    const read = wallets(s, payer.address, sb.tokens.EURC.address)
    const b0 = await read()
    await sb.pay(s.paymentSessionId, { token: 'EURC', from: payer.privateKey })
    await waitUntil(read, (b) => b.payer === b0.payer && b.otw === 0n, 15_000, 'EURC returned')
    expect((await getSession(sb, s.paymentSessionId)).status).toBe('CREATED')
  })

  test('a partial payment in the other accepted token is returned once the session is funded', async () => {
    const payer = sb.customers[3]!
    const s = await createSession(sb)
    const usdt = wallets(s, payer.address, sb.tokens.USDT.address)
    const b0 = await usdt()
    await sb.pay(s.paymentSessionId, { token: 'USDT', amount: '3.00', from: payer.privateKey })
    await waitForSession(sb, s.paymentSessionId, (x) => x.receivedAmount === '3.00')
    await sb.pay(s.paymentSessionId, { token: 'USDC', from: payer.privateKey })
    const funded = await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'FUNDED')
    expect(funded).toMatchObject({
      tokenSymbol: 'USDC',
      capturableAmount: '10.00',
      receivedAmount: '10.00',
    })
    // The 3.00 USDT cannot be captured or refunded as USDC: it goes back to the payer.
    await waitUntil(usdt, (b) => b.payer === b0.payer && b.otw === 0n, 15_000, 'USDT returned')
  })

  test('a payment mined together with a final capture is returned, not stranded in the OTW', async () => {
    const payer = sb.customers[2]!
    const { created: s } = await fundedSession(sb, undefined, { from: payer.privateKey })
    const read = wallets(s, payer.address, sb.tokens.USDC.address)
    const b0 = await read()
    const testClient = createTestClient({ mode: 'anvil', transport: http(sb.rpcUrl) })
    await testClient.setAutomine(false)
    try {
      const res = await capture(sb, s.paymentSessionId, {
        requestId: 'fin',
        captureAmount: '6.00',
        isFinalCapture: true,
      })
      expect(res.json.refundAmount).toBe('4.00')
      // The capture transfer is broadcast (in the mempool); the customer pays again meanwhile.
      await waitUntil(
        async () => (await testClient.getTxpoolContent()).pending,
        (p) => Object.keys(p).some((a) => a.toLowerCase() === s.oneTimeWalletAddress.toLowerCase()),
        10_000,
        'capture broadcast',
      )
      await sb.pay(s.paymentSessionId, { amount: '1.00', from: payer.privateKey })
    } finally {
      await testClient.setAutomine(true)
      await testClient.mine({ blocks: 1 })
    }
    const done = await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'SUCCEEDED')
    expect(done.capturedAmount).toBe('6.00')
    await waitUntil(read, (b) => b.otw === 0n, 15_000, 'OTW emptied')
    expect(diff(b0, await read())).toEqual({
      payer: units('4.00'),
      treasury: units('6.00'),
      otw: -units('10.00'),
    })
  })

  test('a payment after SUCCEEDED is returned to its sender', async () => {
    const payer = sb.customers[4]!
    const { created: s } = await fundedSession(sb, { amount: '2.00', currency: 'USD' })
    await capture(sb, s.paymentSessionId, {
      requestId: 'x',
      captureAmount: '2.00',
      isFinalCapture: true,
    })
    await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'SUCCEEDED')
    const read = wallets(s, payer.address, sb.tokens.USDC.address)
    const b0 = await read()
    await sb.pay(s.paymentSessionId, { amount: '5.00', from: payer.privateKey })
    await waitUntil(
      read,
      (b) => b.payer === b0.payer && b.otw === 0n && b.treasury === b0.treasury,
      15_000,
      'late payment returned',
    )
    expect(await getSession(sb, s.paymentSessionId)).toMatchObject({
      status: 'SUCCEEDED',
      capturedAmount: '2.00',
    })
  })
})

describe('idempotency', () => {
  test('create: the same requestId and body return the same session; another body is 409', async () => {
    const body = { amount: '7.00', currency: 'USD', requestId: crypto.randomUUID() }
    const a = await createSession(sb, body)
    const b = await createSession(sb, { ...body, amount: '7' })
    expect(b.paymentSessionId).toBe(a.paymentSessionId)
    expect(b.oneTimeWalletAddress).toBe(a.oneTimeWalletAddress)
    expect(b.paymentSessionToken).toBe(a.paymentSessionToken)
    expectError(
      await call('POST', '/payment-sessions', {
        auth: sb.apiKey,
        body: { ...body, amount: '7.01' },
      }),
      409,
      'IDEMPOTENCY_CONFLICT',
    )
    const list = (await call('GET', '/api/v1/payment-sessions?limit=500', { auth: sb.apiKey })).json
      .data
    expect(list.filter((s: any) => s.paymentSessionId === a.paymentSessionId)).toHaveLength(1)
  })

  test('capture: the same requestId moves money once and replays even after the session moved on', async () => {
    const payer = sb.customers[0]!
    const { created: s } = await fundedSession(sb)
    const read = wallets(s, payer.address, sb.tokens.USDC.address)
    const b0 = await read()
    const body = { requestId: 'same', captureAmount: '4.00' }
    const [r1, r2] = await Promise.all([
      capture(sb, s.paymentSessionId, body),
      capture(sb, s.paymentSessionId, body),
    ])
    expect(r1.status).toBe(202)
    expect(r2.status).toBe(202)
    expect(r2.json.captureId).toBe(r1.json.captureId)
    await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'FUNDED')
    const r3 = await capture(sb, s.paymentSessionId, body, '')
    expect(r3.status).toBe(202)
    expect(r3.json).toMatchObject({ captureId: r1.json.captureId, status: 'CAPTURED' })
    await capture(sb, s.paymentSessionId, {
      requestId: 'last',
      captureAmount: '6.00',
      isFinalCapture: true,
    })
    await waitForSession(sb, s.paymentSessionId, (x) => x.status === 'SUCCEEDED')
    const r4 = await capture(sb, s.paymentSessionId, body)
    expect(r4.status).toBe(202)
    expect(r4.json.captureId).toBe(r1.json.captureId)
    const done = await getSession(sb, s.paymentSessionId)
    expect(done.captures).toHaveLength(2)
    expect(diff(b0, await read())).toEqual({
      payer: 0n,
      treasury: units('10.00'),
      otw: -units('10.00'),
    })
  })
})

describe('funding window', () => {
  let sb2: Sandbox
  beforeAll(async () => {
    sb2 = await start({ fundingWindowSeconds: 120 })
  })
  afterAll(() => sb2?.stop())

  test('CREATED and underpaid PENDING sessions become CANCELED; late funds go back to the payer', async () => {
    const call2 = api(sb2)
    const payer = sb2.customers[1]!
    const fresh = await createSession(sb2)
    const under = await createSession(sb2)
    const funded = (await fundedSession(sb2)).created
    expect(Date.parse(fresh.expiresAt) - Date.parse(fresh.createdAt)).toBe(120_000)
    const usdc = sb2.tokens.USDC.address
    const b0 = await snapshot(sb2, usdc, { payer: payer.address, otw: under.oneTimeWalletAddress })
    await sb2.pay(under.paymentSessionId, { amount: '3.00', from: payer.privateKey })
    await waitForSession(sb2, under.paymentSessionId, (x) => x.status === 'PENDING')

    sb2.clock.advance(119)
    expect((await getSession(sb2, fresh.paymentSessionId)).status).toBe('CREATED')
    sb2.clock.advance(2)
    expect((await getSession(sb2, fresh.paymentSessionId)).status).toBe('CANCELED')
    expect((await getSession(sb2, under.paymentSessionId)).status).toBe('CANCELED')
    // A funded session is not touched by the funding window.
    expect((await getSession(sb2, funded.paymentSessionId)).status).toBe('FUNDED')

    // What arrived before the window closed goes back to the payer too.
    await waitUntil(
      () => snapshot(sb2, usdc, { payer: payer.address, otw: under.oneTimeWalletAddress }),
      (b) => b.payer === b0.payer && b.otw === 0n,
      15_000,
      'underpayment returned after CANCELED',
    )

    // Funds that arrive after CANCELED are sent back to the payer.
    const f0 = await snapshot(sb2, usdc, { payer: payer.address, otw: fresh.oneTimeWalletAddress })
    const late = await sb2.pay(fresh.paymentSessionId, { from: payer.privateKey })
    await waitUntil(
      () => snapshot(sb2, usdc, { payer: payer.address, otw: fresh.oneTimeWalletAddress }),
      (b) => b.payer === f0.payer && b.otw === 0n,
      15_000,
      'late funds returned',
    )
    const canceled = await getSession(sb2, fresh.paymentSessionId)
    expect(canceled).toMatchObject({
      status: 'CANCELED',
      fundingTransactionHash: null,
      capturableAmount: '0.00',
    })

    // A canceled session is neither payable nor capturable.
    expectError(
      await call2('POST', `/payment-sessions/${fresh.paymentSessionId}/funding-transaction`, {
        auth: fresh.paymentSessionToken,
        body: { fundingTransactionHash: late },
      }),
      409,
      'SESSION_NOT_PAYABLE',
    )
    expectError(
      await capture(sb2, fresh.paymentSessionId, { requestId: 'c', captureAmount: '1.00' }),
      409,
      'SESSION_NOT_CAPTURABLE',
    )
  })
})
