import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { systemClock } from '@paysession/protocol'
import { type Sandbox, startSandbox } from '@paysession/sandbox'
import { Redis } from 'ioredis'
import postgres from 'postgres'
import { parseEventLogs } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startPostgres, startRedis } from '../../../scripts/services.mjs'
import {
  createPostgresDedupeStore,
  createPostgresRateLimit,
  createPostgresRelayStore,
} from '../src/postgres.js'
import {
  createRedisDedupeStore,
  createRedisRateLimit,
  createRedisRelayStore,
} from '../src/redis.js'
import { claimLeaseMs, judgeClaim } from '../src/relay/claims.js'
import { createNetworks } from '../src/relay/networks.js'
import { resolveRelayOptions } from '../src/relay/options.js'
import { gapGraceMs } from '../src/relay/senders/relayer.js'
import { createMemoryRelayStoreForTestsOnly, type RelayStore } from '../src/relay.js'
import { close, listen } from './helpers.js'
import { claimOf, codeOf, hashOf, type RelayKit, relayKit, type Signed } from './relayHelpers.js'
import type { RelayProcessConfig } from './relayProcess.js'

// Several relay instances sharing one relayer key and one store, each its own process, against
// the real sandbox (anvil) and real Postgres and Redis servers started here.
let sb: Sandbox
let kit: RelayKit
let pg: Awaited<ReturnType<typeof startPostgres>>
let redis: Awaited<ReturnType<typeof startRedis>>
const children: ChildProcess[] = []

beforeAll(async () => {
  ;[sb, pg, redis] = await Promise.all([
    startSandbox({ port: 0, chainPort: 0, quiet: true, interval: 50 }),
    startPostgres(),
    startRedis(),
  ])
  kit = relayKit(sb)
}, 60_000)
afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL')
  await Promise.all([sb?.stop(), pg?.stop(), redis?.stop()])
})

const root = fileURLToPath(new URL('../../../', import.meta.url))

/** One relay instance as its own process; resolves with its URL once it listens. */
function relayProcess(
  store: RelayProcessConfig['store'],
  storeUrl: string,
  { rpcUrl = sb.rpcUrl, onChild = (_: ChildProcess) => {} } = {},
): Promise<string> {
  const config: RelayProcessConfig = {
    apiUrl: sb.apiUrl,
    apiKey: sb.apiKey,
    relayer: sb.relayer.privateKey,
    networks: {
      LOCAL: { chainId: sb.chainId, rpcUrl, tokens: { USDC: sb.tokens.USDC.address } },
    },
    store,
    storeUrl,
  }
  const child = spawn(
    `${root}node_modules/.bin/tsx`,
    [fileURLToPath(new URL('./relayProcess.ts', import.meta.url))],
    {
      cwd: root,
      detached: true,
      env: { ...process.env, RELAY_CONFIG: JSON.stringify(config) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  children.push(child)
  onChild(child)
  let output = ''
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk
      const port = /listening (\d+)/.exec(output)?.[1]
      if (port) resolve(`http://127.0.0.1:${port}/relay`)
    })
    child.stderr!.on('data', (chunk) => {
      output += chunk
    })
    child.on('exit', (code) => reject(new Error(`relay process exited ${code}: ${output}`)))
  })
}

function post(url: string, request: Request): Promise<Response> {
  return request
    .text()
    .then((body) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
    )
}

describe.each([
  ['Postgres', 'postgres'],
  ['Redis', 'redis'],
] as const)('two relay processes sharing one relayer key and a %s store', (_, kind) => {
  let instances: string[]
  beforeAll(async () => {
    const url = kind === 'postgres' ? pg.url : redis.url
    instances = await Promise.all([relayProcess(kind, url), relayProcess(kind, url)])
  }, 60_000)

  test('two authorizations for one session, one to each instance at once: paid once', async () => {
    for (let round = 0; round < 3; round++) {
      // One at a time: the kit's minter has no nonce manager.
      const a = await kit.customerWithoutGas()
      const b = await kit.customerWithoutGas()
      const s = await kit.session()
      const [first, second] = await Promise.all([
        kit.authorize(a.key, s.otw),
        kit.authorize(b.key, s.otw),
      ])
      const answers = await Promise.all([
        post(instances[0]!, kit.relayRequest(s.id, first)),
        post(instances[1]!, kit.relayRequest(s.id, second)),
      ])
      const statuses = answers.map((r) => r.status).sort()
      expect(statuses).toEqual([200, 409])
      const sent = answers.find((r) => r.status === 200)!
      const refused = answers.find((r) => r.status === 409)!
      // Refused by the other's claim, or, when the other was already reported, by the
      // session's status: either way the second authorization is never sent.
      expect([
        [409, 'ALREADY_RELAYED'],
        [409, 'SESSION_NOT_PAYABLE'],
      ]).toContainEqual(await codeOf(refused))
      const receipt = await kit.publicClient.waitForTransactionReceipt({ hash: await hashOf(sent) })
      expect(receipt.status).toBe('success')
      expect(await kit.transfersTo(s.otw)).toHaveLength(1)
    }
  })

  test('many sessions at once across both instances: no nonce collision, each funded once', async () => {
    const count = 16
    const nonceBefore = await kit.relayerNonce()
    const payments = []
    for (let i = 0; i < count; i++) {
      const [customer, s] = await Promise.all([kit.customerWithoutGas(), kit.session()])
      payments.push({ s, signed: await kit.authorize(customer.key, s.otw) })
    }
    const answers = await Promise.all(
      payments.map(({ s, signed }, i) => post(instances[i % 2]!, kit.relayRequest(s.id, signed))),
    )
    expect(answers.map((r) => r.status)).toEqual(Array(count).fill(200))
    const hashes = await Promise.all(answers.map(hashOf))
    const receipts = await Promise.all(
      hashes.map((hash) => kit.publicClient.waitForTransactionReceipt({ hash })),
    )
    expect(receipts.map((r) => r.status)).toEqual(Array(count).fill('success'))
    const nonces = await Promise.all(
      hashes.map(async (hash) => (await kit.publicClient.getTransaction({ hash })).nonce),
    )
    expect(new Set(nonces).size).toBe(count)
    expect(await kit.relayerNonce()).toBe(nonceBefore + count)
    for (const { s } of payments) expect(await kit.transfersTo(s.otw)).toHaveLength(1)
  }, 60_000)
})

const clients: { end(): Promise<unknown> }[] = []
afterAll(() => Promise.all(clients.map((c) => c.end())))
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

describe.each([
  ['Postgres', () => createPostgresRelayStore(pgClient())],
  ['Redis', () => createRedisRelayStore(redisClient())],
  ['memory', () => createMemoryRelayStoreForTestsOnly()],
] as const)('the %s store’s contract', (_, create) => {
  test('of writes racing on a key with the same expected text exactly one wins', async () => {
    const store: RelayStore = create()
    const key = `claim:ps_${crypto.randomUUID()}`
    const wins = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.compareAndSet(key, `v${i}`, undefined)),
    )
    expect(wins.filter(Boolean)).toHaveLength(1)
    const winner = await store.get(key)
    expect(await store.compareAndSet(key, 'next', 'not the text')).toBe(false)
    const replacing = await Promise.all(
      Array.from({ length: 10 }, (_, i) => store.compareAndSet(key, `r${i}`, winner)),
    )
    expect(replacing.filter(Boolean)).toHaveLength(1)
    const replaced = await store.get(key)
    expect(replaced).toMatch(/^r\d$/)
    expect(await store.compareAndSet(key, undefined, winner)).toBe(false)
    expect(await store.compareAndSet(key, undefined, replaced)).toBe(true)
    expect(await store.get(key)).toBeUndefined()
    // Text is kept as given: what a record's JSON compares.
    const text = JSON.stringify({ a: 1, b: 'ü' })
    expect(await store.compareAndSet(key, text, undefined)).toBe(true)
    expect(await store.get(key)).toBe(text)
  })
})

test('an EIP-7702-delegated payer not on the list is refused before any gas is spent', async () => {
  const artifacts = createRequire(import.meta.url)('@paysession/sandbox/artifacts/contracts.json')
  const customer = await kit.customerWithoutGas()
  // A delegate that answers ERC-1271 for the customer's own key: the token asks it, as the
  // payer now has code.
  await kit.delegate(customer.key)

  const s = await kit.session()
  const signed = await kit.authorize(customer.key, s.otw)
  const [nonce, balance] = await Promise.all([
    kit.relayerNonce(),
    kit.publicClient.getBalance({ address: sb.relayer.address }),
  ])
  const res = await kit.relayWith({ rateLimit: false })(kit.relayRequest(s.id, signed))
  expect(await codeOf(res)).toEqual([400, 'RELAY_REFUSED'])
  expect(await kit.relayerNonce()).toBe(nonce)
  expect(await kit.publicClient.getBalance({ address: sb.relayer.address })).toBe(balance)

  // On the list, the same payer pays gaslessly.
  const allowed = await kit.relayWith({ rateLimit: false, contractPayers: [customer.address] })(
    kit.relayRequest(s.id, signed),
  )
  expect(allowed.status).toBe(200)
  const receipt = await kit.publicClient.waitForTransactionReceipt({ hash: await hashOf(allowed) })
  expect(
    parseEventLogs({ abi: artifacts.TestStablecoin.abi, logs: receipt.logs }),
  ).not.toHaveLength(0)
  expect(await kit.transfersTo(s.otw)).toHaveLength(1)
})

describe.each([
  [
    'Postgres',
    () => createPostgresRateLimit(pgClient(), limits),
    () => createPostgresDedupeStore(pgClient()),
  ],
  [
    'Redis',
    () => createRedisRateLimit(redisClient(), limits),
    () => createRedisDedupeStore(redisClient()),
  ],
] as const)('shared by every instance over %s', (_, rateLimit, dedupe) => {
  test('the rate limit counts one caller across two instances', async () => {
    const [a, b] = [rateLimit(), rateLimit()]
    const ip = `ip:203.0.113.${Math.floor(Math.random() * 250)}`
    const answers = [await a(ip), await b(ip), await a(ip), await b(ip)]
    expect(answers).toEqual([true, true, true, false])
    expect(await a('session:ps_other')).toBe(true)
  })

  test('a webhook delivery handled on one instance is a duplicate on another', async () => {
    const [a, b] = [dedupe(), dedupe()]
    const id = JSON.stringify(crypto.randomUUID())
    expect(await b.has(id)).toBe(false)
    await a.add(id)
    expect(await b.has(id)).toBe(true)
  })
})
const limits = { ip: { burst: 3, perSecond: 0.001 }, session: { burst: 3, perSecond: 0.001 } }

test('the Postgres rate limit prunes the rows of buckets that are full again, and only those', async () => {
  const sql = pgClient()
  const prefix = `prune_${crypto.randomUUID().slice(0, 8)}`
  // IP buckets are full again at once; session buckets take hours.
  const limit = createPostgresRateLimit(sql, {
    prefix,
    pruneEvery: 3,
    ip: { burst: 2, perSecond: 1e9 },
    session: { burst: 1, perSecond: 0.0001 },
  })
  const keys = async () =>
    (
      await sql<{ key: string }[]>`select key from ${sql(`${prefix}_rate_limits`)} order by key`
    ).map((row) => row.key)
  expect(await limit('ip:198.51.100.1')).toBe(true)
  expect(await limit('session:ps_a')).toBe(true)
  expect(await keys()).toEqual(['ip:198.51.100.1', 'session:ps_a'])
  // The third call prunes first: the full IP bucket goes, the empty session bucket stays and
  // still refuses.
  expect(await limit('session:ps_a')).toBe(false)
  expect(await keys()).toEqual(['session:ps_a'])
})

/**
 * A JSON-RPC proxy in front of the sandbox's node: `onCall` decides what happens to each call
 * (forwarded, or dropped before or after the node, with no answer).
 */
async function rpcProxy(
  onCall: (body: string, forward: () => Promise<string>) => Promise<string | undefined>,
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
    const answer = await onCall(body, () => forward(body))
    if (answer === undefined) return void req.socket.destroy()
    res.setHeader('content-type', 'application/json')
    res.end(answer)
  })
}
const isSend = (body: string) => body.includes('eth_sendRawTransaction')

test('a send the node took but never answered is not sent again, and its session is paid once', async () => {
  // The first eth_sendRawTransaction reaches the node and its answer is lost; any later one is
  // answered. A transport that tried the send again would hear "nonce too low" or "already
  // known", take it for a refusal, free the session, and a second authorization would pay it
  // twice.
  let sends = 0
  const { server, url } = await rpcProxy(async (body, forward) => {
    if (!isSend(body)) return forward()
    const answer = await forward()
    return sends++ === 0 ? undefined : answer
  })
  try {
    const store = createPostgresRelayStore(pgClient())
    const network = (rpcUrl: string) => ({
      LOCAL: { chainId: sb.chainId, rpcUrl, tokens: { USDC: sb.tokens.USDC.address } },
    })
    const lossy = kit.relayWith({ store, rateLimit: false, networks: network(url) })
    const healthy = kit.relayWith({ store, rateLimit: false, networks: network(sb.rpcUrl) })
    const s = await kit.session()
    const a = await kit.customerWithoutGas()
    const b = await kit.customerWithoutGas()
    const first = await lossy(kit.relayRequest(s.id, await kit.authorize(a.key, s.otw)))
    expect(await codeOf(first)).toEqual([503, 'RELAY_UNAVAILABLE'])
    expect(sends).toBe(1)
    // The lost send was mined: the session's second authorization is refused, whatever the
    // node's event index shows yet.
    const second = await healthy(kit.relayRequest(s.id, await kit.authorize(b.key, s.otw)))
    expect((await codeOf(second))[0]).toBe(409)
    expect(await kit.transfersTo(s.otw)).toHaveLength(1)
  } finally {
    await close(server)
  }
})

test('a node whose event index lags its state: a used authorization still counts as used', async () => {
  // The node answers every eth_getLogs with nothing, as one that has not indexed the block yet.
  const { server, url } = await rpcProxy(async (body, forward) =>
    body.includes('eth_getLogs')
      ? JSON.stringify({ jsonrpc: '2.0', id: JSON.parse(body).id, result: [] })
      : forward(),
  )
  try {
    const store = createMemoryRelayStoreForTestsOnly()
    const s = await kit.session()
    const a = await kit.customerWithoutGas()
    const res = await kit.relayWith({ store, rateLimit: false })(
      kit.relayRequest(s.id, await kit.authorize(a.key, s.otw)),
    )
    expect(res.status).toBe(200)
    await kit.publicClient.waitForTransactionReceipt({ hash: await hashOf(res) })
    const lagging = createNetworks(
      resolveRelayOptions({
        client: kit.client,
        relayer: sb.relayer.privateKey,
        networks: {
          LOCAL: { chainId: sb.chainId, rpcUrl: url, tokens: { USDC: sb.tokens.USDC.address } },
        },
        store,
      }),
    )('LOCAL')!
    const record = (await claimOf(store, s.id))!
    expect(await judgeClaim(lagging, record, systemClock)).toBe('used')
    // A claim whose instance died before it recorded anything: the token's state still says
    // used. (Deciding "used or canceled" by the AuthorizationUsed event alone read this as
    // canceled, freed the session, and a second authorization paid it twice.)
    const { relayer: _, relayerNonce: __, hash: ___, ...bare } = record
    expect(await judgeClaim(lagging, bare, systemClock)).toBe('used')
  } finally {
    await close(server)
  }
})

test('a send that never reached the node is sent again from its recorded bytes: the sends behind it are mined, the session is paid once', async () => {
  // A node whose connection drops on every eth_sendRawTransaction: the relay cannot know
  // whether it was sent, so that session stays claimed with its nonce, hash and signed bytes.
  const { server, url } = await rpcProxy(async (body, forward) =>
    isSend(body) ? undefined : forward(),
  )
  try {
    const store = createPostgresRelayStore(pgClient())
    const network = (rpcUrl: string) => ({
      LOCAL: { chainId: sb.chainId, rpcUrl, tokens: { USDC: sb.tokens.USDC.address } },
    })
    const broken = kit.relayWith({ store, rateLimit: false, networks: network(url) })
    // Another instance whose clock is past the gap's grace.
    const later = { now: () => Date.now() + gapGraceMs + 1 }
    const healthy = kit.relayWith({
      store,
      rateLimit: false,
      networks: network(sb.rpcUrl),
      clock: later,
    })
    const nonce = await kit.relayerNonce()
    const first = await kit.session()
    const a = await kit.customerWithoutGas()
    const lost = await broken(kit.relayRequest(first.id, await kit.authorize(a.key, first.otw)))
    expect(await codeOf(lost)).toEqual([503, 'RELAY_UNAVAILABLE'])
    const lostRecord = (await claimOf(store, first.id))!
    expect(lostRecord.relayerNonce).toBe(nonce)
    expect(lostRecord.raw).toMatch(/^0x/)
    await expect(kit.publicClient.getTransaction({ hash: lostRecord.hash! })).rejects.toThrow()
    // Another authorization for that session waits: the lost one may yet be mined.
    const b = await kit.customerWithoutGas()
    const other = await kit.authorize(b.key, first.otw)
    expect(await codeOf(await healthy(kit.relayRequest(first.id, other)))).toEqual([
      409,
      'ALREADY_RELAYED',
    ])
    // The next payment takes the next nonce, and fills the gap with the lost bytes: both mine.
    const second = await kit.session()
    const res = await healthy(kit.relayRequest(second.id, await kit.authorize(b.key, second.otw)))
    expect(res.status).toBe(200)
    const hash = await hashOf(res)
    expect((await kit.publicClient.getTransaction({ hash })).nonce).toBe(nonce + 1)
    expect((await kit.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success')
    expect(
      (await kit.publicClient.waitForTransactionReceipt({ hash: lostRecord.hash! })).status,
    ).toBe('success')
    expect(await kit.transfersTo(second.otw)).toHaveLength(1)
    expect(await kit.transfersTo(first.otw)).toHaveLength(1)
    // The first session was paid by its first authorization: the other is refused.
    expect((await codeOf(await healthy(kit.relayRequest(first.id, other))))[0]).toBe(409)
    expect(await kit.transfersTo(first.otw)).toHaveLength(1)
  } finally {
    await close(server)
  }
})

describe.each([
  ['Postgres', 'postgres'],
  ['Redis', 'redis'],
] as const)('a relay process SIGKILLed while it pays a session (%s store)', (_, kind) => {
  const storeOf = () =>
    kind === 'postgres'
      ? createPostgresRelayStore(pgClient())
      : createRedisRelayStore(redisClient())
  const storeUrl = () => (kind === 'postgres' ? pg.url : redis.url)

  /**
   * Posts `signed` for session `s` to a relay process whose node is behind a proxy, and kills
   * the process with SIGKILL at `point`: at its relayer nonce read (after its claim, before it
   * records its nonce), at its send before the node gets it, or once the node took the send
   * and before the process hears so.
   */
  async function killedAt(
    point: 'nonce read' | 'send, before the node' | 'send, after the node',
    s: { id: string },
    signed: Signed,
  ) {
    let child: ChildProcess | undefined
    let killed: Promise<unknown> | undefined
    const { server, url } = await rpcProxy(async (body, forward) => {
      const at =
        point === 'nonce read'
          ? body.includes('eth_getTransactionCount') && body.includes('pending')
          : isSend(body)
      if (killed) return undefined
      if (!at) return forward()
      killed = (async () => {
        if (point === 'send, after the node') await forward()
        const exited = new Promise((resolve) => child!.once('exit', resolve))
        process.kill(-child!.pid!, 'SIGKILL')
        await exited
      })()
      await killed
      return undefined
    })
    try {
      const relayUrl = await relayProcess(kind, storeUrl(), {
        rpcUrl: url,
        onChild: (c) => {
          child = c
        },
      })
      await expect(post(relayUrl, kit.relayRequest(s.id, signed))).rejects.toThrow()
      await killed
      expect(child!.signalCode).toBe('SIGKILL')
    } finally {
      await close(server)
    }
  }

  // The relay in this process, on the same store; its clock is moved past the claim lease (and
  // so past the grace of a nonce gap).
  let offset = 0
  const healthy = () =>
    kit.relayWith({ store: storeOf(), rateLimit: false, clock: { now: () => Date.now() + offset } })
  const pastLease = () => {
    offset = claimLeaseMs + 1
  }

  test('killed after its claim, before its send: another request takes the claim over after the lease, once', async () => {
    offset = 0
    const s = await kit.session()
    const [a, b] = [await kit.customerWithoutGas(), await kit.customerWithoutGas()]
    const first = await kit.authorize(a.key, s.otw)
    const nonce = await kit.relayerNonce()
    await killedAt('nonce read', s, first)
    const record = await claimOf(storeOf(), s.id)
    expect(record?.nonce).toBe(first.message.nonce)
    expect(record?.relayerNonce).toBeUndefined()
    const second = await kit.authorize(b.key, s.otw)
    // Within the lease the claim is its claimer's.
    expect(await codeOf(await healthy()(kit.relayRequest(s.id, second)))).toEqual([
      409,
      'ALREADY_RELAYED',
    ])
    pastLease()
    const res = await healthy()(kit.relayRequest(s.id, second))
    expect(res.status).toBe(200)
    const hash = await hashOf(res)
    // Its claimer took no nonce: this one is the next the node expects.
    expect((await kit.publicClient.getTransaction({ hash })).nonce).toBe(nonce)
    expect((await kit.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success')
    expect((await codeOf(await healthy()(kit.relayRequest(s.id, first))))[0]).toBe(409)
    expect(await kit.transfersTo(s.otw)).toHaveLength(1)
  })

  test('killed with its nonce, hash and bytes recorded, before the node got the send: the next send fills the gap with them, and the session is paid once', async () => {
    offset = 0
    const s = await kit.session()
    const [a, b] = [await kit.customerWithoutGas(), await kit.customerWithoutGas()]
    const first = await kit.authorize(a.key, s.otw)
    const nonce = await kit.relayerNonce()
    await killedAt('send, before the node', s, first)
    const record = (await claimOf(storeOf(), s.id))!
    expect(record.relayerNonce).toBe(nonce)
    await expect(kit.publicClient.getTransaction({ hash: record.hash! })).rejects.toThrow()
    // Its transaction could still be mined with that nonce: the session's other authorization
    // waits, even past the lease.
    pastLease()
    const second = await kit.authorize(b.key, s.otw)
    expect(await codeOf(await healthy()(kit.relayRequest(s.id, second)))).toEqual([
      409,
      'ALREADY_RELAYED',
    ])
    // Another session's payment takes the next nonce and sends the killed one's bytes again.
    const other = await kit.session()
    const sent = await healthy()(kit.relayRequest(other.id, await kit.authorize(b.key, other.otw)))
    expect(sent.status).toBe(200)
    const sentHash = await hashOf(sent)
    expect((await kit.publicClient.getTransaction({ hash: sentHash })).nonce).toBe(nonce + 1)
    await kit.publicClient.waitForTransactionReceipt({ hash: sentHash })
    expect((await kit.publicClient.waitForTransactionReceipt({ hash: record.hash! })).status).toBe(
      'success',
    )
    expect((await codeOf(await healthy()(kit.relayRequest(s.id, second))))[0]).toBe(409)
    expect(await kit.transfersTo(s.otw)).toHaveLength(1)
    expect(await kit.transfersTo(other.otw)).toHaveLength(1)
  })

  test('killed before the node got the send: the same authorization again sends the same bytes, once', async () => {
    offset = 0
    const s = await kit.session()
    const a = await kit.customerWithoutGas()
    const first = await kit.authorize(a.key, s.otw)
    await killedAt('send, before the node', s, first)
    const lost = (await claimOf(storeOf(), s.id))!.hash!
    // No lease to wait for: the same nonce and the same hash cannot pay twice.
    const res = await healthy()(kit.relayRequest(s.id, first))
    expect(res.status).toBe(200)
    expect(await hashOf(res)).toBe(lost)
    expect((await kit.publicClient.waitForTransactionReceipt({ hash: lost })).status).toBe(
      'success',
    )
    expect(await kit.transfersTo(s.otw)).toHaveLength(1)
  })

  test('killed once the node took the send: the same authorization answers its hash, another is refused', async () => {
    offset = 0
    const s = await kit.session()
    const [a, b] = [await kit.customerWithoutGas(), await kit.customerWithoutGas()]
    const first = await kit.authorize(a.key, s.otw)
    await killedAt('send, after the node', s, first)
    const { hash } = (await claimOf(storeOf(), s.id))!
    expect((await kit.publicClient.waitForTransactionReceipt({ hash: hash! })).status).toBe(
      'success',
    )
    pastLease()
    const again = await healthy()(kit.relayRequest(s.id, first))
    expect(again.status).toBe(200)
    expect(await hashOf(again)).toBe(hash)
    // Refused by the first one's state, or, once the service saw the transfer, by the session's
    // status.
    const second = await kit.authorize(b.key, s.otw)
    expect([
      [409, 'ALREADY_RELAYED'],
      [409, 'SESSION_NOT_PAYABLE'],
    ]).toContainEqual(await codeOf(await healthy()(kit.relayRequest(s.id, second))))
    expect(await kit.transfersTo(s.otw)).toHaveLength(1)
  })
})
