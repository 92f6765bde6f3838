import type { Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createMemoryDedupeStore,
  createWebhookHandler,
  isPaySessionError,
  type PaymentStatusUpdateEvent,
  PaySessionError,
  verifyWebhookSignature,
  type WebhookDedupeStore,
  type WebhookRejection,
} from '../src/index.js'
import { toNodeListener } from '../src/node.js'
import {
  close,
  listen,
  nowSeconds,
  secret,
  sign,
  statusUpdate,
  type Update,
  webhookRequest,
} from './helpers.js'

function setup(options: Partial<Parameters<typeof createWebhookHandler>[0]> = {}) {
  const events: PaymentStatusUpdateEvent[] = []
  const rejections: WebhookRejection[] = []
  const handler = createWebhookHandler({
    secret,
    onEvent: (event) => {
      events.push(event)
    },
    onRejected: (rejection) => {
      rejections.push(rejection)
    },
    ...options,
  })
  return { handler, events, rejections }
}

const signed = (body: string, t?: number) =>
  webhookRequest(body, { 'Paysession-Signature': sign(body, t === undefined ? {} : { t }) })

describe('webhook handler: signature', () => {
  it('accepts a correctly signed update and answers the exact acknowledgement', async () => {
    const { handler, events } = setup()
    const response = await handler(signed(statusUpdate('evt_good')))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(await response.text()).toBe('{"jsonrpc":"2.0","result":"ok","id":"evt_good"}')
    expect(events).toEqual([
      {
        id: 'evt_good',
        method: 'paysession_paymentStatusUpdate',
        merchantId: 'mer_1',
        paymentSessionId: 'ps_0123456789abcdef01234567',
        status: 'FUNDED',
        updatedAt: '2025-01-01T00:00:00.000Z',
        verified: true,
      },
    ])
  })

  it('refuses a signature made with another secret', async () => {
    const { handler, events, rejections } = setup()
    const body = statusUpdate('evt_bad')
    const response = await handler(
      webhookRequest(body, { 'Paysession-Signature': sign(body, { key: 'whsec_other' }) }),
    )
    expect(response.status).toBe(401)
    const answer = await response.json()
    expect(answer).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 }, id: null })
    expect(answer.result).toBeUndefined()
    expect(events).toHaveLength(0)
    expect(rejections.map((r) => r.reason)).toEqual(['SIGNATURE_MISMATCH'])
  })

  it('refuses a body changed after signing', async () => {
    const { handler, events } = setup()
    const original = statusUpdate('evt_tamper', { status: 'PENDING' })
    const tampered = statusUpdate('evt_tamper', { status: 'FUNDED' })
    const response = await handler(
      webhookRequest(tampered, { 'Paysession-Signature': sign(original) }),
    )
    expect(response.status).toBe(401)
    expect(events).toHaveLength(0)
  })

  it('refuses a missing or malformed signature header', async () => {
    const { handler, events, rejections } = setup()
    const body = statusUpdate('evt_missing')
    expect((await handler(webhookRequest(body))).status).toBe(401)
    const malformed = [
      'v1=abc',
      `t=${nowSeconds()}`,
      `t=${nowSeconds()},v1=nothex`,
      'garbage',
      `t=soon,v1=${'a'.repeat(64)}`,
    ]
    for (const header of malformed) {
      const response = await handler(webhookRequest(body, { 'Paysession-Signature': header }))
      expect(response.status).toBe(401)
    }
    expect(events).toHaveLength(0)
    expect(rejections.map((r) => r.reason)).toEqual([
      'MISSING_SIGNATURE',
      ...malformed.map(() => 'MALFORMED_SIGNATURE'),
    ])
  })

  it('refuses a timestamp outside the replay window, in the past or the future', async () => {
    const { handler, events, rejections } = setup()
    const body = statusUpdate('evt_stale')
    expect((await handler(signed(body, nowSeconds() - 301))).status).toBe(401)
    expect((await handler(signed(body, nowSeconds() + 301))).status).toBe(401)
    expect(rejections.map((r) => r.reason)).toEqual(['STALE_TIMESTAMP', 'STALE_TIMESTAMP'])
    expect(events).toHaveLength(0)
    // Just inside the window is fine.
    expect((await handler(signed(body, nowSeconds() - 290))).status).toBe(200)
    expect(events).toHaveLength(1)
  })

  it('honours a custom tolerance', async () => {
    const { handler } = setup({ toleranceSeconds: 10 })
    expect((await handler(signed(statusUpdate('evt_t1'), nowSeconds() - 60))).status).toBe(401)
    expect((await handler(signed(statusUpdate('evt_t2'), nowSeconds() - 2))).status).toBe(200)
  })

  it('verifies HMAC over the raw bytes, non-ASCII included', async () => {
    const { handler, events } = setup()
    const body = statusUpdate('evt_utf8', { merchantId: 'Café Müller ☕' })
    const response = await handler(signed(body))
    expect(response.status).toBe(200)
    expect(events[0]?.merchantId).toBe('Café Müller ☕')
  })

  it('with insecureNoSignature accepts unsigned updates and marks them unverified', async () => {
    const { handler, events } = setup({ secret: undefined, insecureNoSignature: true })
    const response = await handler(webhookRequest(statusUpdate('evt_unsigned')))
    expect(response.status).toBe(200)
    expect(events[0]?.verified).toBe(false)
  })

  it('refuses to be created without a secret unless the merchant opts out', () => {
    const onEvent = () => {}
    // process.env.PAYSESSION_WEBHOOK_SECRET unset, or set to an empty string.
    for (const missing of [undefined, '']) {
      let thrown: unknown
      try {
        createWebhookHandler({ secret: missing, onEvent })
      } catch (error) {
        thrown = error
      }
      expect(isPaySessionError(thrown, 'INVALID_CONFIG')).toBe(true)
      expect((thrown as PaySessionError).shortMessage).toContain('insecureNoSignature: true')
    }
    expect(() => createWebhookHandler({ onEvent })).toThrow(PaySessionError)
    expect(() => createWebhookHandler({ onEvent, insecureNoSignature: false })).toThrow(
      /needs the secret/,
    )
    // Both at once is a contradiction, not a choice.
    expect(() => createWebhookHandler({ secret, onEvent, insecureNoSignature: true })).toThrow(
      /both a secret and insecureNoSignature/,
    )
    expect(typeof createWebhookHandler({ onEvent, insecureNoSignature: true })).toBe('function')
  })

  it('refuses a tolerance that is no window (NaN, Infinity, a fraction, out of range) when it is built', async () => {
    const onEvent = () => {}
    // Number(process.env.PAYSESSION_WEBHOOK_TOLERANCE) with the variable unset is NaN.
    for (const toleranceSeconds of [Number(undefined), Infinity, -Infinity, -1, 0, 1.5, 86_400]) {
      let thrown: unknown
      try {
        createWebhookHandler({ secret, onEvent, toleranceSeconds })
      } catch (error) {
        thrown = error
      }
      expect(isPaySessionError(thrown, 'INVALID_CONFIG'), String(toleranceSeconds)).toBe(true)
      expect((thrown as PaySessionError).shortMessage).toMatch(
        /toleranceSeconds must be a whole number of seconds from 1 to 3600/,
      )
      expect((thrown as PaySessionError).details).toBe(`toleranceSeconds is ${toleranceSeconds}.`)
      // The lower-level check refuses it too, rather than accept a signature of any age.
      await expect(
        verifyWebhookSignature({
          secret,
          header: sign(statusUpdate('evt_nan'), { t: 1 }),
          body: statusUpdate('evt_nan'),
          toleranceSeconds,
        }),
      ).rejects.toThrow(/toleranceSeconds must be/)
    }
    // The edges of the range are accepted.
    for (const toleranceSeconds of [1, 3600])
      expect(typeof createWebhookHandler({ secret, onEvent, toleranceSeconds })).toBe('function')
  })

  it('verifyWebhookSignature accepts any matching v1 (secret rotation)', async () => {
    const body = statusUpdate('evt_rotate')
    const t = nowSeconds()
    const old = sign(body, { key: 'whsec_old', t })
    const current = sign(body, { t })
    const header = `${current},${old.split(',')[1]}`
    expect(await verifyWebhookSignature({ secret, header, body })).toEqual({
      ok: true,
      timestamp: t,
    })
    expect((await verifyWebhookSignature({ secret: 'whsec_old', header, body })).ok).toBe(true)
    expect(await verifyWebhookSignature({ secret: 'whsec_x', header, body })).toEqual({
      ok: false,
      reason: 'SIGNATURE_MISMATCH',
    })
  })
})

describe('webhook handler: JSON-RPC validation', () => {
  const cases: Array<[string, string, number, string, unknown]> = [
    ['not JSON', '{"jsonrpc":"2.0",', -32700, 'PARSE_ERROR', null],
    ['an array body', '[]', -32600, 'INVALID_REQUEST', null],
    [
      'jsonrpc 1.0',
      statusUpdate('evt_v', {}, { jsonrpc: '1.0' }),
      -32600,
      'INVALID_REQUEST',
      'evt_v',
    ],
    ['no id', statusUpdate('evt_x', {}, { id: undefined }), -32600, 'INVALID_REQUEST', null],
    ['a null id', statusUpdate(null), -32600, 'INVALID_REQUEST', null],
    [
      'no method',
      statusUpdate('evt_m', {}, { method: undefined }),
      -32600,
      'INVALID_REQUEST',
      'evt_m',
    ],
    [
      'params as an object',
      statusUpdate('evt_p', {}, { params: { paymentSessionId: 'ps_1' } }),
      -32602,
      'INVALID_PARAMS',
      'evt_p',
    ],
    [
      'two params',
      statusUpdate('evt_p2', {}, { params: [{}, {}] }),
      -32602,
      'INVALID_PARAMS',
      'evt_p2',
    ],
  ]
  const fieldCases: Array<[string, Update]> = [
    ['no merchantId', { merchantId: undefined }],
    ['no paymentSessionId', { paymentSessionId: '' }],
    ['an unknown status', { status: 'PAID' }],
    ['a numeric status', { status: 3 }],
    ['an updatedAt that is not a date', { updatedAt: 'yesterday' }],
  ]
  for (const [name, update] of fieldCases) {
    cases.push([name, statusUpdate('evt_f', update), -32602, 'INVALID_PARAMS', 'evt_f'])
  }

  for (const [name, body, code, reason, id] of cases) {
    it(`answers 400 ${code} to ${name}`, async () => {
      const { handler, events, rejections } = setup()
      const response = await handler(signed(body))
      expect(response.status).toBe(400)
      const answer = await response.json()
      expect(answer).toEqual({
        jsonrpc: '2.0',
        error: { code, message: expect.any(String), data: { reason } },
        id,
      })
      expect(events).toHaveLength(0)
      expect(rejections[0]?.reason).toBe(reason)
    })
  }

  it('answers -32601 to a method that is not *_paymentStatusUpdate', async () => {
    const { handler, events } = setup()
    for (const method of ['paysession_refund', '_paymentStatusUpdate', 'paymentStatusUpdate']) {
      const response = await handler(signed(statusUpdate('evt_method', {}, { method })))
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ error: { code: -32601 }, id: 'evt_method' })
    }
    expect(events).toHaveLength(0)
  })

  it('accepts any service prefix on the method', async () => {
    const { handler, events } = setup()
    const body = statusUpdate('evt_other', {}, { method: 'acme_paymentStatusUpdate' })
    expect((await handler(signed(body))).status).toBe(200)
    expect(events[0]?.method).toBe('acme_paymentStatusUpdate')
  })

  it('echoes a numeric id', async () => {
    const { handler } = setup()
    const response = await handler(signed(statusUpdate(42)))
    expect(await response.text()).toBe('{"jsonrpc":"2.0","result":"ok","id":42}')
  })

  it('answers 405 to GET and 413 to an oversized body', async () => {
    const { handler } = setup({ maxBodyBytes: 512 })
    const get = await handler(webhookRequest('', {}, 'GET'))
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST')
    const big = statusUpdate('evt_big', { merchantId: 'x'.repeat(1000) })
    expect((await handler(signed(big))).status).toBe(413)
  })
})

describe('webhook handler: dedupe', () => {
  it('hands a repeated delivery id to the app once, and acknowledges both', async () => {
    const duplicates: PaymentStatusUpdateEvent[] = []
    const { handler, events } = setup({ onDuplicate: (event) => duplicates.push(event) })
    const body = statusUpdate('evt_dup')
    const first = await handler(signed(body))
    const second = await handler(signed(body))
    expect(first.status).toBe(200)
    expect(second.status).toBe(200)
    expect(await second.text()).toBe('{"jsonrpc":"2.0","result":"ok","id":"evt_dup"}')
    expect(events).toHaveLength(1)
    expect(duplicates.map((e) => e.id)).toEqual(['evt_dup'])
  })

  it('does not let a replayed, expired request through even though its id is known', async () => {
    const { handler, events } = setup()
    const body = statusUpdate('evt_replay')
    const t = nowSeconds() - 400
    const response = await handler(
      webhookRequest(body, { 'Paysession-Signature': sign(body, { t }) }),
    )
    expect(response.status).toBe(401)
    expect(events).toHaveLength(0)
  })

  it('handles concurrent deliveries of one id once', async () => {
    let calls = 0
    const handler = createWebhookHandler({
      secret,
      onEvent: async () => {
        calls++
        await new Promise((resolve) => setTimeout(resolve, 50))
      },
    })
    const body = statusUpdate('evt_race')
    const responses = await Promise.all([1, 2, 3].map(() => handler(signed(body))))
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200])
    expect(calls).toBe(1)
  })

  it('answers 500 when onEvent throws, and hands over the retried delivery again', async () => {
    let calls = 0
    const rejections: WebhookRejection[] = []
    const handler = createWebhookHandler({
      secret,
      onEvent: () => {
        calls++
        if (calls === 1) throw new Error('database down')
      },
      onRejected: (rejection) => rejections.push(rejection),
    })
    const body = statusUpdate('evt_retry')
    const failed = await handler(signed(body))
    expect(failed.status).toBe(500)
    expect(await failed.json()).toMatchObject({ error: { code: -32603 }, id: 'evt_retry' })
    expect(rejections[0]!.error).toMatchObject({ message: 'database down' })
    const retried = await handler(signed(body))
    expect(retried.status).toBe(200)
    expect(calls).toBe(2)
  })

  it('uses a pluggable store', async () => {
    // Ids are remembered as JSON (dedupeKey): a string id with its quotes.
    const remembered = new Set<string>(['"evt_seen_elsewhere"'])
    const store: WebhookDedupeStore = {
      has: async (id) => remembered.has(id),
      add: async (id) => {
        remembered.add(id)
      },
    }
    const { handler, events } = setup({ dedupe: store })
    expect((await handler(signed(statusUpdate('evt_seen_elsewhere')))).status).toBe(200)
    expect(events).toHaveLength(0)
    expect((await handler(signed(statusUpdate('evt_new')))).status).toBe(200)
    expect(events.map((e) => e.id)).toEqual(['evt_new'])
    expect(remembered.has('"evt_new"')).toBe(true)
  })

  it('the number 1 and the string "1" are two deliveries', async () => {
    const { handler, events } = setup()
    expect((await handler(signed(statusUpdate(1)))).status).toBe(200)
    expect((await handler(signed(statusUpdate('1')))).status).toBe(200)
    expect((await handler(signed(statusUpdate(1)))).status).toBe(200)
    expect(events.map((e) => e.id)).toEqual([1, '1'])
  })

  it('can be turned off', async () => {
    const { handler, events } = setup({ dedupe: false })
    const body = statusUpdate('evt_twice')
    await handler(signed(body))
    await handler(signed(body))
    expect(events).toHaveLength(2)
  })

  it('the memory store forgets the least recently used id beyond its size', () => {
    const store = createMemoryDedupeStore({ max: 2 })
    store.add('a')
    store.add('b')
    expect(store.has('a')).toBe(true) // a is now the most recent
    store.add('c') // evicts b
    expect(store.has('b')).toBe(false)
    expect(store.has('a')).toBe(true)
    expect(store.has('c')).toBe(true)
    expect(store.size).toBe(2)
  })
})

describe('toNodeListener on a real node:http server', () => {
  let server: Server
  let url: string
  const events: PaymentStatusUpdateEvent[] = []

  beforeAll(async () => {
    const handler = createWebhookHandler({ secret, onEvent: (event) => void events.push(event) })
    ;({ server, url } = await listen(toNodeListener(handler)))
  })
  afterAll(() => close(server))

  it('verifies and acknowledges a signed delivery', async () => {
    const body = statusUpdate('evt_node', { merchantId: 'Bäckerei' })
    const response = await fetch(`${url}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'Paysession-Signature': sign(body) },
      body,
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(await response.text()).toBe('{"jsonrpc":"2.0","result":"ok","id":"evt_node"}')
    expect(events.at(-1)).toMatchObject({ id: 'evt_node', merchantId: 'Bäckerei', verified: true })
  })

  it('refuses a bad signature and malformed JSON with JSON-RPC errors', async () => {
    const body = statusUpdate('evt_node_bad')
    const bad = await fetch(url, {
      method: 'POST',
      headers: { 'Paysession-Signature': sign(body, { key: 'nope' }) },
      body,
    })
    expect(bad.status).toBe(401)
    expect(await bad.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 } })
    const junk = 'not json'
    const malformed = await fetch(url, {
      method: 'POST',
      headers: { 'Paysession-Signature': sign(junk) },
      body: junk,
    })
    expect(malformed.status).toBe(400)
    expect(await malformed.json()).toMatchObject({ error: { code: -32700 }, id: null })
    expect(events.some((e) => e.id === 'evt_node_bad')).toBe(false)
  })

  it('answers 405 to a GET', async () => {
    const response = await fetch(url)
    expect(response.status).toBe(405)
  })
})
