import type { Sandbox } from '@paysession/sandbox'
import { erc20Abi, getAddress, type Hex, parseEventLogs } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { until } from './helpers.js'
import { codeOf, type RelayKit, startRelayKit } from './relayHelpers.js'
import { accountOf, requiredOf, settlementOf, x402Kit } from './x402Helpers.js'

// An agent pays a sandbox session with the real x402 client (`@x402/fetch`), through the
// endpoint over HTTP, settled by the merchant's relayer or by x402's own facilitator.
let sb: Sandbox
let kit: RelayKit
let x: ReturnType<typeof x402Kit>

beforeAll(async () => {
  ;({ sb, kit } = await startRelayKit({ interval: 50 }))
  x = x402Kit(sb, kit)
}, 60_000)
afterAll(async () => {
  await x?.stop()
  await sb?.stop()
})

/** The session funded by exactly one transfer of 10 USDC from `payer`, sent by `sender`. */
async function expectFundedOnce(s: { id: string; otw: Hex }, hash: Hex, payer: Hex, sender: Hex) {
  const receipt = await kit.publicClient.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  expect(getAddress(receipt.from)).toBe(sender)
  const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs })
  expect(transfers.map((t) => [t.args.from, t.args.to, t.args.value])).toEqual([
    [payer, s.otw, 10_000_000n],
  ])
  expect(await kit.transfersTo(s.otw)).toHaveLength(1)
  const session = await until(
    () => kit.client.getSession(s.id),
    (session) => session.status === 'FUNDED',
  )
  expect(getAddress(session.userAddress!)).toBe(payer)
}

describe('an agent pays a session over x402', () => {
  test('through the merchant’s relay: 402, a signed retry, 200 with the settlement, FUNDED once', async () => {
    const urlOf = await x.endpoint()
    const customer = await kit.customerWithoutGas()
    const s = await kit.session()

    // What any x402 client reads first.
    const unpaid = await fetch(urlOf(s.id))
    expect(unpaid.status).toBe(402)
    expect(requiredOf(unpaid)).toMatchObject({
      x402Version: 2,
      resource: { url: urlOf(s.id) },
      accepts: [
        {
          scheme: 'exact',
          network: `eip155:${sb.chainId}`,
          asset: sb.tokens.USDC.address,
          amount: '10000000',
          payTo: s.otw,
          maxTimeoutSeconds: 300,
          extra: { name: 'USD Coin', version: '2' },
        },
      ],
    })

    const agent = x.agent(accountOf(customer.key))
    const paid = await agent.pay(urlOf(s.id))
    expect(agent.sent.map((r) => [r.payment !== null, r.status])).toEqual([
      [false, 402],
      [true, 200],
    ])
    expect(paid.status).toBe(200)
    const settlement = settlementOf(paid)
    expect(settlement).toMatchObject({
      success: true,
      network: `eip155:${sb.chainId}`,
      payer: customer.address,
    })
    const body = (await paid.json()) as { transactionHash: Hex; paymentSessionId: string }
    expect(body).toEqual({
      paymentSessionId: s.id,
      transactionHash: settlement.transaction,
      network: `eip155:${sb.chainId}`,
    })
    await expectFundedOnce(s, body.transactionHash, customer.address, sb.relayer.address)
    // Gasless for the agent: the relayer paid the gas.
    expect(await kit.publicClient.getBalance({ address: customer.address })).toBe(0n)

    // The same payment again (a retried request) answers the same settlement and moves nothing.
    const replay = await x.pay(urlOf(s.id), agent.sent[1]!.payment!)
    expect(replay.status).toBe(200)
    expect(settlementOf(replay).transaction).toBe(settlement.transaction)

    // A second payment for the paid session is refused: nothing is asked, nothing is taken.
    const second = x.agent(accountOf(customer.key))
    expect(await codeOf(await second.pay(urlOf(s.id)))).toEqual([409, 'SESSION_NOT_PAYABLE'])
    expect(second.sent.map((r) => r.payment)).toEqual([null])
    const another = await kit.customerWithoutGas()
    const late = await x.signedPayment(accountOf(another.key), urlOf((await kit.session()).id), {
      payTo: s.otw,
    })
    const refused = await x.pay(urlOf(s.id), late)
    expect(await codeOf(refused)).toEqual([409, 'SESSION_NOT_PAYABLE'])
    expect(settlementOf(refused)).toMatchObject({
      success: false,
      errorReason: 'SESSION_NOT_PAYABLE',
    })
    expect(await kit.transfersTo(s.otw)).toHaveLength(1)
  })

  test('through x402’s own facilitator reached by URL: the same payment settles', async () => {
    const facilitator = await x.facilitator()
    const relayed: string[] = []
    const urlOf = await x.endpoint({
      facilitator: facilitator.url,
      onRelayed: (event) => void relayed.push(event.transactionHash),
    })
    const customer = await kit.customerWithoutGas()
    const s = await kit.session()
    const relayerNonce = await kit.relayerNonce()

    const agent = x.agent(accountOf(customer.key))
    const paid = await agent.pay(urlOf(s.id))
    expect(agent.sent.map((r) => [r.payment !== null, r.status])).toEqual([
      [false, 402],
      [true, 200],
    ])
    const settlement = settlementOf(paid)
    expect(settlement).toMatchObject({ success: true, network: `eip155:${sb.chainId}` })
    await expectFundedOnce(s, settlement.transaction as Hex, customer.address, facilitator.address)
    expect(await kit.relayerNonce()).toBe(relayerNonce)
    expect(relayed).toEqual([settlement.transaction])

    const second = await x.signedPayment(
      accountOf((await kit.customerWithoutGas()).key),
      urlOf((await kit.session()).id),
      { payTo: s.otw },
    )
    expect(await codeOf(await x.pay(urlOf(s.id), second))).toEqual([409, 'SESSION_NOT_PAYABLE'])
    expect(await kit.transfersTo(s.otw)).toHaveLength(1)
  })

  test('the checkout’s gasless request, with relay-url naming the endpoint, settles through the facilitator too', async () => {
    const facilitator = await x.facilitator()
    const urlOf = await x.endpoint({ facilitator: facilitator.url })
    const relayUrl = urlOf('').replace('?session=', '')
    const customer = await kit.customerWithoutGas()
    const s = await kit.session()
    const signed = await kit.authorize(customer.key, s.otw)
    const post = async () =>
      fetch(relayUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: await kit.relayRequest(s.id, signed).text(),
      })
    const res = await post()
    expect(res.status).toBe(200)
    const { transactionHash } = (await res.json()) as { transactionHash: Hex }
    await expectFundedOnce(s, transactionHash, customer.address, facilitator.address)
    // Retried, it answers the same hash; a wrong amount is the relay's refusal.
    expect(await (await post()).json()).toEqual({ transactionHash })
    const other = await kit.session()
    const wrong = await kit.authorize(customer.key, other.otw, { value: 9_999_999n })
    const refused = await fetch(relayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: await kit.relayRequest(other.id, wrong).text(),
    })
    expect(await codeOf(refused)).toEqual([422, 'WRONG_AMOUNT'])
  })
})
