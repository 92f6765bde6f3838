import { type Sandbox, startSandbox } from '@paysession/sandbox'
import { Redis } from 'ioredis'
import postgres from 'postgres'
import { createTestClient, type Hex, http, keccak256, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startPostgres, startRedis } from '../../../scripts/services.mjs'
import { createWebhookHandler } from '../src/index.js'
import { createPostgresDedupeStore, createPostgresRelayStore } from '../src/postgres.js'
import { createRedisDedupeStore, createRedisRelayStore } from '../src/redis.js'
import { claimLeaseMs } from '../src/relay/claims.js'
import { gapGraceMs } from '../src/relay/senders/relayer.js'
import { close, listen, secret, sign, statusUpdate, webhookRequest } from './helpers.js'
import { claimOf, codeOf, hashOf, type RelayKit, relayKit } from './relayHelpers.js'
import { accountOf, x402Kit } from './x402Helpers.js'

// One payment per session, whichever way it comes: the faults that paid sessions twice, each
// against the real sandbox (anvil), and real Postgres and Redis.
let sb: Sandbox
let kit: RelayKit
let pg: Awaited<ReturnType<typeof startPostgres>>
let redis: Awaited<ReturnType<typeof startRedis>>
const clients: { end(): Promise<unknown> }[] = []

beforeAll(async () => {
  ;[sb, pg, redis] = await Promise.all([
    startSandbox({ port: 0, chainPort: 0, quiet: true }),
    startPostgres(),
    startRedis(),
  ])
  kit = relayKit(sb)
}, 60_000)
afterAll(async () => {
  await Promise.all(clients.map((c) => c.end()))
  await Promise.all([sb?.stop(), pg?.stop(), redis?.stop()])
})

function pgClient() {
  const sql = postgres(pg.url, { onnotice: () => {} })
  clients.push(sql)
  return sql
}
function redisClient() {
  const client = new Redis(redis.url)
  clients.push({ end: () => client.quit() })
  return client
}
const stores = [
  ['Postgres', () => createPostgresRelayStore(pgClient())],
  ['Redis', () => createRedisRelayStore(redisClient())],
] as const

const testClient = () => createTestClient({ mode: 'anvil', transport: http(sb.rpcUrl) })
const networkVia = (rpcUrl: string) => ({
  LOCAL: { chainId: sb.chainId, rpcUrl, tokens: { USDC: sb.tokens.USDC.address } },
})

/**
 * A JSON-RPC proxy in front of the sandbox's node: `onCall` answers each call, by forwarding it
 * (changed or not) or with an answer of its own; `undefined` drops the connection.
 */
async function rpcProxy(
  onCall: (
    call: { method: string; params: unknown[]; id: unknown },
    forward: (call?: object) => Promise<string>,
  ) => Promise<string | undefined>,
) {
  const forward = (body: string) =>
    fetch(sb.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    }).then((answer) => answer.text())
  return listen(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString()
    const call = JSON.parse(body)
    const answer = await onCall(call, (changed) =>
      forward(changed ? JSON.stringify(changed) : body),
    )
    if (answer === undefined) return void req.socket.destroy()
    res.setHeader('content-type', 'application/json')
    res.end(answer)
  })
}
const result = (id: unknown, value: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id, result: value })

describe.each(stores)('on the %s store', (_, store) => {
  test('a torn read after the first payment was mined (its nonce spent, its authorization not yet used at the block read): the second is refused, one transfer', async () => {
    const shared = store()
    const s = await kit.session()
    const [a, b] = [await kit.customerWithoutGas(), await kit.customerWithoutGas()]
    const paid = await kit.relayWith({ store: shared, rateLimit: false })(
      kit.relayRequest(s.id, await kit.authorize(a.key, s.otw)),
    )
    expect(paid.status).toBe(200)
    const receipt = await kit.publicClient.waitForTransactionReceipt({ hash: await hashOf(paid) })
    // A node that names block N−1 as its head, and answers the relayer's nonce from its live
    // state (as anvil does while it mines N, or a load balancer's node that is ahead).
    const before = `0x${(receipt.blockNumber - 1n).toString(16)}`
    const { server, url } = await rpcProxy(async (call, forward) => {
      if (call.method === 'eth_getBlockByNumber' && call.params[0] === 'latest')
        return forward({ ...call, params: [before, ...call.params.slice(1)] })
      if (call.method === 'eth_getTransactionCount')
        return forward({ ...call, params: [call.params[0], 'latest'] })
      return forward()
    })
    try {
      // A service that has not seen the transfer yet, so the chain alone must refuse.
      const lagging = {
        getSession: async (...args: Parameters<typeof kit.client.getSession>) => ({
          ...(await kit.client.getSession(...args)),
          status: 'PENDING' as const,
          receivedAmount: '0',
        }),
      }
      const torn = kit.relayWith({
        store: shared,
        rateLimit: false,
        client: lagging,
        networks: networkVia(url),
        clock: { now: () => Date.now() + claimLeaseMs + 1 },
      })
      const second = await torn(kit.relayRequest(s.id, await kit.authorize(b.key, s.otw)))
      expect(await codeOf(second)).toEqual([409, 'ALREADY_RELAYED'])
      expect(await kit.transfersTo(s.otw)).toHaveLength(1)
    } finally {
      await close(server)
    }
  })

  test('a node that drops a transaction it accepted: every later send is mined, and none after its validBefore', async () => {
    const shared = store()
    // The first send is answered with its hash and never reaches the node.
    let dropped: Hex | undefined
    const { server, url } = await rpcProxy(async (call, forward) => {
      if (call.method !== 'eth_sendRawTransaction' || dropped) return forward()
      dropped = keccak256(call.params[0] as Hex)
      return result(call.id, dropped)
    })
    try {
      const lossy = kit.relayWith({ store: shared, rateLimit: false, networks: networkVia(url) })
      const s = await kit.session()
      const a = await kit.customerWithoutGas()
      const block = await kit.publicClient.getBlock()
      // Valid for 45 s: by the time its gap is found, too close to its end to be sent again.
      const first = await kit.authorize(a.key, s.otw, { validBefore: block.timestamp + 45n })
      const lost = await lossy(kit.relayRequest(s.id, first))
      expect(lost.status).toBe(200)
      expect(await hashOf(lost)).toBe(dropped)
      // Other instances, past the gap's grace, requiring 60 s of validity at the send.
      const later = kit.relayWith({
        store: shared,
        rateLimit: false,
        clock: { now: () => Date.now() + gapGraceMs + 1 },
        minValiditySeconds: 60,
      })
      const hashes: Hex[] = []
      const others = []
      for (let i = 0; i < 3; i++) {
        const [customer, other] = [await kit.customerWithoutGas(), await kit.session()]
        others.push(other)
        const res = await later(
          kit.relayRequest(other.id, await kit.authorize(customer.key, other.otw)),
        )
        expect(res.status).toBe(200)
        hashes.push(await hashOf(res))
      }
      const receipts = await Promise.all(
        hashes.map((hash) => kit.publicClient.waitForTransactionReceipt({ hash, timeout: 20_000 })),
      )
      expect(receipts.map((r) => r.status)).toEqual(['success', 'success', 'success'])
      for (const other of others) expect(await kit.transfersTo(other.otw)).toHaveLength(1)
      // The gap was filled by a transfer of nothing, never by the authorization about to expire.
      await expect(kit.publicClient.getTransactionReceipt({ hash: dropped! })).rejects.toThrow()
      expect(await kit.transfersTo(s.otw)).toHaveLength(0)
      // Its relayer nonce is spent without it: once a later block shows it unused, the session
      // takes another authorization.
      await testClient().mine({ blocks: 1 })
      const b = await kit.customerWithoutGas()
      const [retry] = await Promise.all([
        later(kit.relayRequest(s.id, await kit.authorize(b.key, s.otw))),
        new Promise((r) => setTimeout(r, 500)).then(() => testClient().mine({ blocks: 1 })),
      ])
      expect(retry.status).toBe(200)
      await kit.publicClient.waitForTransactionReceipt({ hash: await hashOf(retry) })
      expect(await kit.transfersTo(s.otw)).toHaveLength(1)
    } finally {
      await close(server)
    }
  })

  test('one payer, ten sessions, the balance for one: one transfer sent, nine refused before any gas is spent', async () => {
    const shared = store()
    const relay = kit.relayWith({ store: shared, rateLimit: false })
    const payer = await kit.customerWithoutGas() // 100 USDC
    const sessions = await Promise.all(Array.from({ length: 10 }, () => kit.session('100.00')))
    const signed = await Promise.all(
      sessions.map((s) => kit.authorize(payer.key, s.otw, { value: parseUnits('100', 6) })),
    )
    const [nonce, balance] = await Promise.all([
      kit.relayerNonce(),
      kit.publicClient.getBalance({ address: sb.relayer.address }),
    ])
    const answers = await Promise.all(
      sessions.map((s, i) => relay(kit.relayRequest(s.id, signed[i]!))),
    )
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as {
      transactionHash?: Hex
      error?: { code: string }
    }[]
    const sent = bodies.filter((b) => b.transactionHash)
    expect(sent).toHaveLength(1)
    for (const [i, body] of bodies.entries())
      if (!body.transactionHash)
        expect([
          [409, 'PAYER_BUSY'],
          [422, 'INSUFFICIENT_BALANCE'],
        ]).toContainEqual([answers[i]!.status, body.error?.code])
    const receipt = await kit.publicClient.waitForTransactionReceipt({
      hash: sent[0]!.transactionHash!,
    })
    expect(receipt.status).toBe('success')
    expect(await kit.relayerNonce()).toBe(nonce + 1)
    expect(balance - (await kit.publicClient.getBalance({ address: sb.relayer.address }))).toBe(
      receipt.gasUsed * receipt.effectiveGasPrice,
    )
    // The balance moved: the payer's next authorization is refused by the simulation, free.
    const unpaid = bodies.findIndex((b) => !b.transactionHash)
    const again = await relay(kit.relayRequest(sessions[unpaid]!.id, signed[unpaid]!))
    const after = await codeOf(again)
    expect(after).toEqual([422, 'INSUFFICIENT_BALANCE'])
    expect(await kit.relayerNonce()).toBe(nonce + 1)
  })
})

test('an x402 payment whose facilitator never answers /settle (its transaction pending), then another authorization to the relay after the lease: one transfer', async () => {
  const x = x402Kit(sb, kit)
  try {
    const shared = createPostgresRelayStore(pgClient())
    const real = await x.facilitator()
    // A facilitator reached through a proxy that passes /settle on and drops the answer.
    const { server, url } = await listen(async (req, res) => {
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      const forwarded = fetch(`${real.url}${req.url}`, {
        method: req.method!,
        headers: { 'content-type': 'application/json' },
        ...(req.method === 'GET' ? {} : { body: Buffer.concat(chunks) }),
      })
      if (req.url === '/settle') {
        forwarded.catch(() => {})
        await new Promise((r) => setTimeout(r, 500))
        return void req.socket.destroy()
      }
      const answer = await forwarded
      res.writeHead(answer.status, { 'content-type': 'application/json' })
      res.end(Buffer.from(await answer.arrayBuffer()))
    })
    const urlOf = await x.endpoint({ facilitator: url, store: shared })
    const s = await kit.session()
    const [a, b] = [await kit.customerWithoutGas(), await kit.customerWithoutGas()]
    const header = await x.signedPayment(accountOf(a.key), urlOf(s.id))
    const other = await kit.authorize(b.key, s.otw)
    await testClient().setAutomine(false)
    try {
      const first = await x.pay(urlOf(s.id), header)
      expect(await codeOf(first)).toEqual([503, 'RELAY_UNAVAILABLE'])
      expect((await claimOf(shared, s.id))?.facilitator).toBe(url)
      // The facilitator's transaction waits in the pool; the lease is over for the relay.
      const relay = kit.relayWith({
        store: shared,
        rateLimit: false,
        clock: { now: () => Date.now() + claimLeaseMs + 1 },
      })
      const second = await relay(kit.relayRequest(s.id, other))
      expect(await codeOf(second)).toEqual([409, 'ALREADY_RELAYED'])
    } finally {
      await testClient().setAutomine(true)
      await testClient().mine({ blocks: 1 })
      await close(server)
    }
    // Mined now: the facilitator's payment is the session's one transfer, and the relay's
    // authorization is still refused.
    await new Promise((r) => setTimeout(r, 1_000))
    expect(await kit.transfersTo(s.otw)).toHaveLength(1)
    const relay = kit.relayWith({ store: shared, rateLimit: false })
    expect((await codeOf(await relay(kit.relayRequest(s.id, other))))[0]).toBe(409)
    expect(await kit.transfersTo(s.otw)).toHaveLength(1)
  } finally {
    await x.stop()
  }
})

describe.each([
  ['Postgres', () => createPostgresDedupeStore(pgClient())],
  ['Redis', () => createRedisDedupeStore(redisClient())],
] as const)('webhooks over %s', (_, dedupe) => {
  test('one delivery reaching two instances at once is handled once', async () => {
    let handled = 0
    const instance = () =>
      createWebhookHandler({
        secret,
        dedupe: dedupe(),
        onEvent: async () => {
          handled++
          await new Promise((r) => setTimeout(r, 200))
        },
      })
    const [one, two] = [instance(), instance()]
    const body = statusUpdate(`evt_${crypto.randomUUID()}`)
    const deliver = (handler: typeof one) =>
      handler(webhookRequest(body, { 'paysession-signature': sign(body) }))
    const answers = await Promise.all([deliver(one), deliver(two)])
    expect(handled).toBe(1)
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409])
    // The service delivers the refused one again: a duplicate now, acknowledged, not handled.
    expect((await deliver(two)).status).toBe(200)
    expect(handled).toBe(1)
  })

  test('a delivery whose handler failed is handled again by the next delivery', async () => {
    let calls = 0
    const handler = createWebhookHandler({
      secret,
      dedupe: dedupe(),
      onEvent: () => {
        if (++calls === 1) throw new Error('the database is down')
      },
    })
    const body = statusUpdate(`evt_${crypto.randomUUID()}`)
    const deliver = () => handler(webhookRequest(body, { 'paysession-signature': sign(body) }))
    expect((await deliver()).status).toBe(500)
    expect((await deliver()).status).toBe(200)
    expect((await deliver()).status).toBe(200)
    expect(calls).toBe(2)
  })
})
