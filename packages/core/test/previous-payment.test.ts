import { createWalletClient, http, parseAbi } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  checkPreviousPayment,
  getSession,
  type PaymentRecord,
  readPaymentRecord,
  writePaymentRecord,
} from '../src/exports/index.js'
import {
  anvilRpc,
  createSession,
  mockWagmi,
  paySessionConfig,
  type Sandbox,
  startRangeLimitedRpc,
  startSandbox,
} from './support.js'

// "Never twice" on a fast chain: a payment record a few hours old is tens of thousands of blocks
// behind the head (Arbitrum makes four a second). Real anvil, blocks mined with anvil_mine, and a
// real RPC proxy that refuses eth_getLogs over LIMIT blocks, as hosted RPCs do (at 2,000 or
// 10,000). Limit and spans are scaled down together (a span is still a few dozen ranges): anvil's
// cost per mined block grows with the chain's height (it rebuilds its state tries, and since Prague
// the block-hash history contract fills up), so thousands of blocks take a loaded machine minutes.
const LIMIT = 25
let sb: Sandbox
let rpc: Awaited<ReturnType<typeof startRangeLimitedRpc>>
beforeAll(async () => {
  sb = await startSandbox({ port: 0, chainPort: 0, quiet: true })
  rpc = await startRangeLimitedRpc(sb.rpcUrl, LIMIT)
})
afterAll(async () => {
  await rpc?.close()
  await sb?.stop()
})

const customer = () => sb.customers[4]!
/** Core reads the chain through the range-limited RPC. */
const limitedConfig = () =>
  paySessionConfig(
    { ...sb, rpcUrl: rpc.url } as Sandbox,
    mockWagmi({ ...sb, rpcUrl: rpc.url } as Sandbox, customer().address),
  )
const head = async () => BigInt(await anvilRpc<string>(sb, 'eth_blockNumber'))
const mine = (blocks: number) => anvilRpc(sb, 'anvil_mine', [`0x${blocks.toString(16)}`])

async function transfer(token: 'USDC' | 'EURC', to: `0x${string}`, value: bigint) {
  const wallet = createWalletClient({
    account: privateKeyToAccount(customer().privateKey),
    transport: http(sb.rpcUrl),
  })
  return wallet.writeContract({
    chain: null,
    address: sb.tokens[token].address,
    abi: parseAbi(['function transfer(address to, uint256 value) returns (bool)']),
    functionName: 'transfer',
    args: [to, value],
  })
}

async function recordedSession(state: PaymentRecord['state'], hash?: `0x${string}`) {
  const created = await createSession(sb, '3.00')
  const config = limitedConfig()
  const session = await getSession(config, {
    sessionId: created.paymentSessionId,
    sessionToken: created.paymentSessionToken,
  })
  const record: PaymentRecord = {
    version: 1,
    sessionId: created.paymentSessionId,
    state,
    chainId: 31337,
    token: 'USDC',
    tokenAddress: sb.tokens.USDC.address,
    from: customer().address,
    to: created.oneTimeWalletAddress,
    amount: '3000000',
    fromBlock: (await head()).toString(),
    hash,
    // The prompt opened long ago: only the chain can still say something.
    createdAt: Date.now() - 3 * 3600_000,
  }
  writePaymentRecord(config.storage, record)
  return { config, session, created, record }
}

describe('checking a previous payment on a fast chain', () => {
  test('an old record: logs are read in bounded chunks, the record is cleared, the customer can pay', async () => {
    const { config, session } = await recordedSession('ended')
    const from = await head()
    await mine(24 * LIMIT)
    const to = await head()
    rpc.ranges.length = 0

    expect(await checkPreviousPayment(config, { session })).toEqual({ kind: 'none' })
    expect(readPaymentRecord(config.storage, session.paymentSessionId)).toBeUndefined()

    // Every range the RPC served was within its limit, and together they cover the whole span.
    const served = rpc.ranges.filter((r) => r.served).sort((a, b) => Number(a.from - b.from))
    expect(served.every((r) => r.to - r.from + 1n <= BigInt(LIMIT))).toBe(true)
    expect(served[0]!.from).toBe(from)
    expect(served.at(-1)!.to).toBeGreaterThanOrEqual(to)
    for (let i = 1; i < served.length; i++) expect(served[i]!.from).toBe(served[i - 1]!.to + 1n)
    // It learnt the limit: a few refusals (the whole span halved down under LIMIT), not one per chunk.
    expect(rpc.ranges.filter((r) => !r.served).length).toBeLessThanOrEqual(6)
  })

  test('a transfer sent after the prompt is found dozens of RPC ranges later', async () => {
    const { config, session, created } = await recordedSession('ended')
    await mine(8 * LIMIT)
    const hash = await transfer('USDC', created.oneTimeWalletAddress, 3_000_000n)
    await mine(16 * LIMIT)
    rpc.ranges.length = 0

    const previous = await checkPreviousPayment(config, { session })
    expect(previous).toMatchObject({ kind: 'inFlight', reason: 'transferFound', hash })
    expect(readPaymentRecord(config.storage, session.paymentSessionId)?.hash).toBe(hash)
    // Found in a range of its own size, after the refusals, many ranges past the record's block.
    const served = rpc.ranges.filter((r) => r.served)
    expect(served.length).toBeGreaterThan(8)
    expect(served.every((r) => r.to - r.from + 1n <= BigInt(LIMIT))).toBe(true)
  })

  test('a mined hash that does not pay this one-time wallet in its token does not count as paid', async () => {
    const other = sb.customers[3]!.address
    const { config, session, created } = await recordedSession('submitted')
    // Our record's hash: a real, successful USDC transfer, but to someone else.
    const elsewhere = await transfer('USDC', other, 1_000_000n)
    writePaymentRecord(config.storage, {
      ...readPaymentRecord(config.storage, session.paymentSessionId)!,
      hash: elsewhere,
    })
    // A hash the service was told of: a transfer to the one-time wallet in a token the session
    // does not accept (EURC for a USD session). The sandbox sends that back, as it should.
    const wrongToken = await transfer('EURC', created.oneTimeWalletAddress, 3_000_000n)
    await mine(2)

    const previous = await checkPreviousPayment(config, {
      session: { ...session, userSubmittedTransactionHash: wrongToken },
    })
    expect(previous).toEqual({ kind: 'none' })
    expect(readPaymentRecord(config.storage, session.paymentSessionId)).toBeUndefined()
  })
})
