import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { type Sandbox, startSandbox } from '@paysession/sandbox'
import { Redis } from 'ioredis'
import postgres from 'postgres'
import { getAddress, type Hex, parseEventLogs } from 'viem'
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
import { createMemoryRelayStoreForTestsOnly, type RelayStore } from '../src/relay.js'
import { close, listen } from './helpers.js'
import { codeOf, hashOf, type RelayKit, relayKit } from './relayHelpers.js'
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
  for (const child of children) if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL')
  await Promise.all([sb?.stop(), pg?.stop(), redis?.stop()])
})

const root = fileURLToPath(new URL('../../../', import.meta.url))

/** One relay instance as its own process; resolves with its URL once it listens. */
function relayProcess(store: RelayProcessConfig['store'], storeUrl: string): Promise<string> {
  const config: RelayProcessConfig = {
    apiUrl: sb.apiUrl,
    apiKey: sb.apiKey,
    relayer: sb.relayer.privateKey,
    networks: {
      LOCAL: { chainId: sb.chainId, rpcUrl: sb.rpcUrl, tokens: { USDC: sb.tokens.USDC.address } },
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
  const record = (nonce: string) => ({
    from: getAddress(`0x${'11'.repeat(20)}`),
    nonce: nonce as Hex,
    validBefore: '100',
    network: 'LOCAL',
    token: getAddress(`0x${'22'.repeat(20)}`),
    fromBlock: '1',
    claimedAt: 5,
  })

  test('of claims racing for a session exactly one wins; a replacement compares the record', async () => {
    const store: RelayStore = create()
    const session = `ps_${crypto.randomUUID()}`
    const wins = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.claim(session, record(`0x${i}`))),
    )
    expect(wins.filter(Boolean)).toHaveLength(1)
    const winner = await store.get(session)
    expect(await store.claim(session, record('0xaa'), record('0xbb'))).toBe(false)
    expect(await store.claim(session, record('0xaa'), winner)).toBe(true)
    await store.release(session, winner!)
    expect((await store.get(session))?.nonce).toBe('0xaa')
    await store.release(session, record('0xaa'))
    expect(await store.get(session)).toBeUndefined()
  })

  test('the nonce lock runs one send at a time and hands on the last accepted nonce', async () => {
    const store: RelayStore = create()
    const key = `31337:${crypto.randomUUID()}`
    let inside = 0
    let most = 0
    const seen: (number | undefined)[] = []
    await Promise.all(
      Array.from({ length: 10 }, () =>
        store.withNonce(key, async (last) => {
          most = Math.max(most, ++inside)
          seen.push(last?.nonce)
          await new Promise((r) => setTimeout(r, 5))
          inside--
          const nonce = (last?.nonce ?? -1) + 1
          return { nonce, result: nonce }
        }),
      ),
    )
    expect(most).toBe(1)
    expect(seen).toEqual([undefined, 0, 1, 2, 3, 4, 5, 6, 7, 8])
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

test('a send that never reached the node leaves no nonce gap: the next session is mined', async () => {
  // A node whose connection drops on every eth_sendRawTransaction: the relay cannot know
  // whether it was sent, so that session stays claimed, and no nonce was taken.
  const { server, url } = await listen(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString()
    if (body.includes('eth_sendRawTransaction')) return void req.socket.destroy()
    const answer = await fetch(sb.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })
    res.setHeader('content-type', 'application/json')
    res.end(await answer.text())
  })
  try {
    const store = createPostgresRelayStore(pgClient())
    const network = (rpcUrl: string) => ({
      LOCAL: { chainId: sb.chainId, rpcUrl, tokens: { USDC: sb.tokens.USDC.address } },
    })
    const broken = kit.relayWith({ store, rateLimit: false, networks: network(url) })
    const healthy = kit.relayWith({ store, rateLimit: false, networks: network(sb.rpcUrl) })
    const nonce = await kit.relayerNonce()
    const first = await kit.session()
    const a = await kit.customerWithoutGas()
    const lost = await broken(kit.relayRequest(first.id, await kit.authorize(a.key, first.otw)))
    expect(await codeOf(lost)).toEqual([503, 'RELAY_UNAVAILABLE'])
    expect((await store.get(first.id))?.hash).toBeUndefined()
    // Another authorization for that session waits: the lost one may yet be mined.
    const b = await kit.customerWithoutGas()
    expect(
      await codeOf(
        await healthy(kit.relayRequest(first.id, await kit.authorize(b.key, first.otw))),
      ),
    ).toEqual([409, 'ALREADY_RELAYED'])
    const second = await kit.session()
    const res = await healthy(kit.relayRequest(second.id, await kit.authorize(b.key, second.otw)))
    expect(res.status).toBe(200)
    const hash = await hashOf(res)
    expect((await kit.publicClient.getTransaction({ hash })).nonce).toBe(nonce)
    expect((await kit.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success')
    expect(await kit.transfersTo(second.otw)).toHaveLength(1)
  } finally {
    await close(server)
  }
})
