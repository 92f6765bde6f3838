import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createBrowserChain, type JournalEntry } from '@paysession/browser-chain'
import { type Address, createPublicClient, type Hex, http, type PublicClient, parseAbi } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { readArtifacts } from '../src/chain/artifacts.js'
import { LOCAL_TOKENS } from '../src/chain/tokens.js'
import { createMemoryStorage, type MemoryState, startInPageService } from '../src/inpage/index.js'
import { start, units } from './helpers.js'

// One service test suite, two adapters: Node (SQLite, anvil, node:http, webhooks over HTTP)
// and in-page (in-memory storage, the ethereumjs browser chain, the fetch-style handler,
// webhooks to an in-page function). Both run the same rules, so both must answer alike.

const SECRET = 'whsec_adapters'
const USDC = LOCAL_TOKENS[0]!.address

interface Delivery {
  raw: string
  signature: string
}

interface Harness {
  apiKey: string
  merchantId: string
  treasury: Address
  customer: Address
  /** The API: Node over HTTP, in-page through `handle`. */
  fetch(path: string, init?: RequestInit): Promise<Response>
  pay(sessionId: string, options?: { amount?: string }): Promise<Hex>
  client: PublicClient
  deliveries: Delivery[]
  stop(): Promise<void>
}

const ack = () =>
  new Response(JSON.stringify({ jsonrpc: '2.0', result: 'ok' }), {
    headers: { 'content-type': 'application/json' },
  })

async function nodeAdapter(): Promise<Harness> {
  const deliveries: Delivery[] = []
  const receiver = createServer((req, res) => {
    let raw = ''
    req.on('data', (c) => {
      raw += c
    })
    req.on('end', () => {
      deliveries.push({ raw, signature: String(req.headers['paysession-signature']) })
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ jsonrpc: '2.0', result: 'ok' }))
    })
  })
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
  const sb = await start({
    webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
    webhookSecret: SECRET,
  })
  return {
    apiKey: sb.apiKey,
    merchantId: sb.merchantId,
    treasury: sb.treasury,
    customer: sb.customers[0]!.address,
    fetch: (path, init) => fetch(`${sb.apiUrl}${path}`, init),
    pay: (id, options) => sb.pay(id, options),
    client: createPublicClient({ transport: http(sb.rpcUrl), cacheTime: 0 }),
    deliveries,
    stop: async () => {
      await sb.stop()
      receiver.close()
    },
  }
}

async function inPageAdapter(): Promise<Harness> {
  const deliveries: Delivery[] = []
  const provider = await createBrowserChain()
  const service = await startInPageService({
    provider,
    artifacts: readArtifacts(),
    storage: createMemoryStorage(),
    webhookUrl: 'https://merchant.invalid/hooks',
    webhookSecret: SECRET,
    interval: 50,
    deliver: async (url, init) => {
      const request = new Request(url, init)
      deliveries.push({
        raw: await request.text(),
        signature: String(request.headers.get('paysession-signature')),
      })
      return ack()
    },
  })
  return {
    apiKey: service.apiKey,
    merchantId: service.merchantId,
    treasury: service.treasury,
    customer: service.customers[0]!.address,
    fetch: (path, init) =>
      service.handle(new Request(new URL(path, 'https://in-page.invalid'), init)),
    pay: (id, options) => service.pay(id, options),
    client: service.chain.publicClient as PublicClient,
    deliveries,
    stop: () => service.stop(),
  }
}

const balanceOf = parseAbi(['function balanceOf(address) view returns (uint256)'])

describe.each([
  ['Node adapter (SQLite, anvil, node:http)', nodeAdapter],
  ['in-page adapter (memory, browser chain, fetch handler)', inPageAdapter],
])('the service on the %s', (_name, startAdapter) => {
  let h: Harness
  beforeAll(async () => {
    h = await startAdapter()
  }, 60_000)
  afterAll(() => h?.stop())

  async function call(method: string, path: string, auth?: string, body?: unknown) {
    const headers: Record<string, string> = {}
    if (auth) headers.authorization = `Bearer ${auth}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await h.fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: res.status, json: (await res.json()) as any }
  }
  const session = (id: string) => call('GET', `/api/v1/payment-sessions/${id}`, h.apiKey)
  async function until(id: string, done: (s: any) => boolean) {
    const deadline = Date.now() + 20_000
    let last: any
    while (Date.now() < deadline) {
      last = (await session(id)).json
      if (done(last)) return last
      await new Promise((r) => setTimeout(r, 40))
    }
    throw new Error(`session ${id} never got there; last: ${JSON.stringify(last)}`)
  }
  const balance = (owner: Address) =>
    h.client.readContract({
      address: USDC,
      abi: balanceOf,
      functionName: 'balanceOf',
      args: [owner],
    })

  test('create is idempotent by requestId; bad credentials and unknown sessions are typed errors', async () => {
    const body = { amount: '10.00', currency: 'USD', requestId: 'order-1' }
    const first = await call('POST', '/api/v1/payment-sessions', h.apiKey, body)
    expect(first.status).toBe(200)
    expect(first.json).toMatchObject({ amount: '10.00', currency: 'USD', status: 'CREATED' })
    expect(first.json.paymentSessionToken).toMatch(/^pst_[0-9a-f]{48}$/)
    const again = await call('POST', '/api/v1/payment-sessions', h.apiKey, body)
    expect(again.json.paymentSessionId).toBe(first.json.paymentSessionId)
    const other = await call('POST', '/api/v1/payment-sessions', h.apiKey, {
      ...body,
      amount: '11.00',
    })
    expect(other.status).toBe(409)
    const anonymous = await call('POST', '/api/v1/payment-sessions', undefined, body)
    expect(anonymous).toMatchObject({ status: 401, json: { error: { code: 'UNAUTHORIZED' } } })
    const missing = await session('ps_nothing')
    expect(missing).toMatchObject({ status: 404, json: { error: { code: 'SESSION_NOT_FOUND' } } })
  })

  test('pay, report, fund; partial then final capture with refund, checked on chain; webhooks signed and in order', async () => {
    const created = await call('POST', '/payment-sessions', h.apiKey, {
      amount: '10.00',
      currency: 'USD',
    })
    const id = created.json.paymentSessionId as string
    const otw = created.json.oneTimeWalletAddress as Address
    const before = { customer: await balance(h.customer), treasury: await balance(h.treasury) }

    const hash = await h.pay(id)
    const reported = await call(
      'POST',
      `/api/v1/payment-sessions/${id}/funding-transaction`,
      created.json.paymentSessionToken,
      { fundingTransactionHash: hash, wait: true },
    )
    expect(reported.status).toBe(200)
    expect(reported.json).toMatchObject({ success: true, status: 'FUNDED', processed: true })
    const funded = await until(id, (s) => s.status === 'FUNDED')
    expect(funded).toMatchObject({ capturableAmount: '10.00', fundingTransactionHash: hash })
    expect(await balance(otw)).toBe(units('10.00'))

    const capture = (body: Record<string, unknown>) =>
      call('POST', `/api/v1/payment-sessions/${id}/captures`, h.apiKey, body)
    const partial = await capture({ requestId: 'c1', captureAmount: '2.50' })
    expect(partial.status).toBe(202)
    await until(id, (s) => s.status === 'FUNDED' && s.capturedAmount === '2.50')
    // The same requestId replays the capture and moves no money again.
    const replay = await capture({ requestId: 'c1', captureAmount: '2.50' })
    expect(replay.json.captureId).toBe(partial.json.captureId)

    const final = await capture({ requestId: 'c2', captureAmount: '5.00', isFinalCapture: true })
    expect(final.status).toBe(202)
    expect(final.json).toMatchObject({ finalCapture: true, refundAmount: '2.50' })
    const done = await until(id, (s) => s.status === 'SUCCEEDED')
    expect(done).toMatchObject({ capturedAmount: '7.50', capturableAmount: '0.00' })
    const c = await call(
      'GET',
      `/api/v1/payment-sessions/${id}/captures/${final.json.captureId}`,
      h.apiKey,
    )
    expect(c.json).toMatchObject({
      status: 'CAPTURED',
      captureAmount: '5.00',
      refundAmount: '2.50',
    })
    expect(c.json.refundTransferTransactionHash).toMatch(/^0x[0-9a-f]{64}$/)

    expect(await balance(otw)).toBe(0n)
    expect((await balance(h.treasury)) - before.treasury).toBe(units('7.50'))
    expect((await balance(h.customer)) - before.customer).toBe(-units('7.50'))

    // Paid in full and reported with wait: CREATED goes straight to FUNDED.
    const expected = ['CREATED', 'FUNDED', 'CAPTURING', 'FUNDED', 'CAPTURING', 'SUCCEEDED']
    const mine = () =>
      h.deliveries.filter((d) => JSON.parse(d.raw).params[0].paymentSessionId === id)
    const deadline = Date.now() + 20_000
    while (mine().length < expected.length && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 40))
    const got = mine()
    expect(got.map((d) => JSON.parse(d.raw).params[0].status)).toEqual(expected)
    for (const d of got) {
      const body = JSON.parse(d.raw)
      expect(body).toMatchObject({
        jsonrpc: '2.0',
        method: 'paysession_paymentStatusUpdate',
        params: [{ merchantId: h.merchantId, paymentSessionId: id }],
      })
      const { t, v1 } = Object.fromEntries(d.signature.split(',').map((kv) => kv.split('=')))
      const mac = createHmac('sha256', SECRET).update(`${t}.${d.raw}`).digest()
      expect(timingSafeEqual(mac, Buffer.from(String(v1), 'hex'))).toBe(true)
    }
  })

  // Last: it moves the service's clock past every open session's funding window.
  test('the funding window: an underpaid session is CANCELED and what arrived goes back', async () => {
    const created = await call('POST', '/api/v1/payment-sessions', h.apiKey, {
      amount: '10.00',
      currency: 'USD',
    })
    const id = created.json.paymentSessionId as string
    const otw = created.json.oneTimeWalletAddress as Address
    const before = await balance(h.customer)
    await h.pay(id, { amount: '4.00' })
    const pending = await until(id, (s) => s.status === 'PENDING')
    expect(pending.receivedAmount).toBe('4.00')
    const moved = await call('POST', '/sandbox/clock', h.apiKey, { advanceSeconds: 24 * 3600 + 1 })
    expect(moved.status).toBe(200)
    expect((await session(id)).json.status).toBe('CANCELED')
    const deadline = Date.now() + 20_000
    while ((await balance(otw)) !== 0n && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 40))
    expect(await balance(otw)).toBe(0n)
    expect(await balance(h.customer)).toBe(before)
  })
})

describe('the in-memory storage', () => {
  const row = (id: string, index: number) => ({
    id,
    request_id: null,
    request_fingerprint: null,
    token: `pst_${id}`,
    token_expires_at: 0,
    amount: '1.00',
    currency: 'USD',
    network: 'LOCAL',
    token_symbol: 'USDC',
    accepted_tokens: '["USDC"]',
    otw_index: index,
    otw_address: `0x${String(index).padStart(40, '0')}`,
    user_address: null,
    funding_tx: null,
    user_submitted_tx: null,
    received_units: '0',
    capturable_units: '0',
    captured_units: '0',
    status: 'CREATED' as const,
    created_at: index,
    expires_at: 0,
    updated_at: 0,
  })

  test('a transaction is all-or-nothing, keys stay unique, and a saved state resumes', () => {
    const saved: any[] = []
    const store = createMemoryStorage(undefined, (state) => saved.push(state))
    store.sessions.insert(row('a', 0))
    expect(() =>
      store.transaction(() => {
        store.sessions.update('a', { status: 'FUNDED' })
        store.sessions.insert(row('b', 0))
      }),
    ).toThrow(/UNIQUE/)
    expect(store.sessions.get('a')?.status).toBe('CREATED')
    expect(store.sessions.get('b')).toBeUndefined()
    store.transaction(() => {
      store.sessions.insert(row('b', 1))
      store.webhooks.insert({
        id: 'evt_1',
        session_id: 'b',
        body: '{}',
        state: 'PENDING',
        next_attempt_at: 0,
        created_at: 0,
      })
    })
    // One commit per outermost transaction or lone write; the failed one saved nothing.
    expect(saved).toHaveLength(2)
    const resumed = createMemoryStorage(saved.at(-1))
    expect(resumed.sessions.list(10).map((s) => s.id)).toEqual(['b', 'a'])
    expect(resumed.webhooks.heads()).toMatchObject([{ seq: 1, id: 'evt_1', attempts: 0 }])
    expect(resumed.sessions.nextOtwIndex()).toBe(2)
  })
})

describe('the in-page adapter after a reload', () => {
  test('the saved store and chain journal resume: a funded session is captured after the restart', async () => {
    let state: MemoryState | undefined
    const journal: JournalEntry[] = []
    // Saved with the journal: every block hash descends from the genesis block's time.
    let genesisTimestamp: number | undefined
    const boot = async () => {
      const provider = await createBrowserChain({
        journal: [...journal],
        genesisTimestamp,
        onJournal: (entry) => void journal.push(entry),
      })
      genesisTimestamp = provider.genesisTimestamp
      return startInPageService({
        provider,
        artifacts: readArtifacts(),
        storage: createMemoryStorage(state, (saved) => {
          state = saved
        }),
        interval: 50,
      })
    }
    const first = await boot()
    const auth = { authorization: `Bearer ${first.apiKey}`, 'content-type': 'application/json' }
    const api = (service: typeof first, path: string, init?: RequestInit) =>
      service.handle(new Request(new URL(path, 'https://in-page.invalid'), init))
    const created = await (
      await api(first, '/api/v1/payment-sessions', {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ amount: '10.00', currency: 'USD' }),
      })
    ).json()
    const id = created.paymentSessionId
    await first.pay(id)
    const read = async (service: typeof first) =>
      (await api(service, `/api/v1/payment-sessions/${id}`, { headers: auth })).json()
    const deadline = Date.now() + 20_000
    while ((await read(first)).status !== 'FUNDED' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 40))
    expect((await read(first)).status).toBe('FUNDED')
    await first.stop()

    const second = await boot()
    expect(second.treasury).toBe(first.treasury)
    expect(await read(second)).toMatchObject({ status: 'FUNDED', capturableAmount: '10.00' })
    const captured = await api(second, `/api/v1/payment-sessions/${id}/captures`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        requestId: 'after-reload',
        captureAmount: '10.00',
        isFinalCapture: true,
      }),
    })
    expect(captured.status).toBe(202)
    while ((await read(second)).status !== 'SUCCEEDED' && Date.now() < deadline + 20_000)
      await new Promise((r) => setTimeout(r, 40))
    expect(await read(second)).toMatchObject({ status: 'SUCCEEDED', capturedAmount: '10.00' })
    const usdc = parseAbi(['function balanceOf(address) view returns (uint256)'])
    expect(
      await second.chain.publicClient.readContract({
        address: USDC,
        abi: usdc,
        functionName: 'balanceOf',
        args: [second.treasury],
      }),
    ).toBe(units('10.00'))
    await second.stop()
  })
})
