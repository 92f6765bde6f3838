import type { Server } from 'node:http'
import { type Sandbox, startSandbox } from '@paysession/sandbox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  confirmStatus,
  createPaySessionClient,
  createWebhookHandler,
  type PaymentStatusUpdateEvent,
  type PaySessionClient,
  type WebhookRejection,
} from '../src/index.js'
import { toNodeListener } from '../src/node.js'
import { close, listen, until } from './helpers.js'

const webhookSecret = 'whsec_e2e_secret'

let sb: Sandbox
let client: PaySessionClient
let server: Server
let events: PaymentStatusUpdateEvent[] = []
let duplicates: PaymentStatusUpdateEvent[] = []
let rejections: WebhookRejection[] = []
let handlerSecret = webhookSecret
/** Deliveries whose acknowledgement is lost on the way back (the connection drops). */
let dropAcks = 0

beforeAll(async () => {
  const handlers = new Map<string, ReturnType<typeof toNodeListener>>()
  const listenerFor = (secret: string) => {
    let listener = handlers.get(secret)
    if (!listener) {
      listener = toNodeListener(
        createWebhookHandler({
          secret,
          onEvent: (event) => void events.push(event),
          onDuplicate: (event) => void duplicates.push(event),
          onRejected: (rejection) => void rejections.push(rejection),
        }),
      )
      handlers.set(secret, listener)
    }
    return listener
  }
  let url: string
  ;({ server, url } = await listen((req, res) => {
    if (dropAcks > 0) {
      dropAcks--
      // Let the handler process the delivery, then lose its answer.
      res.end = (() => {
        req.socket.destroy()
        return res
      }) as typeof res.end
    }
    listenerFor(handlerSecret)(req, res)
  }))
  sb = await startSandbox({
    port: 0,
    chainPort: 0,
    quiet: true,
    webhookUrl: `${url}/webhooks/paysession`,
    webhookSecret,
    webhookRetryDelay: 100,
    webhookMaxAttempts: 4,
  })
  client = createPaySessionClient({ apiBase: sb.apiUrl, apiKey: sb.apiKey })
})

afterAll(async () => {
  await sb?.stop()
  if (server) await close(server)
})

const eventsFor = (id: string) => events.filter((e) => e.paymentSessionId === id)

describe('webhooks from the sandbox', () => {
  it('delivers a signed FUNDED update that the handler verifies and confirms', async () => {
    events = []
    const created = await client.createSession({ amount: '10.00', currency: 'USD' })
    await sb.pay(created.paymentSessionId)
    const funded = await until(
      () => eventsFor(created.paymentSessionId),
      (list) => list.some((e) => e.status === 'FUNDED'),
    )
    const event = funded.find((e) => e.status === 'FUNDED')!
    expect(event).toMatchObject({
      method: 'paysession_paymentStatusUpdate',
      merchantId: sb.merchantId,
      paymentSessionId: created.paymentSessionId,
      verified: true,
    })
    expect(event.id).toMatch(/^evt_/)
    expect(rejections).toHaveLength(0)

    const confirmed = await confirmStatus(client, event)
    expect(confirmed).toMatchObject({ status: 'FUNDED', matches: true, paid: true })
    expect(confirmed.session?.capturableAmount).toBe('10.00')
  })

  it('hands the app a redelivery once when the acknowledgement was lost', async () => {
    events = []
    duplicates = []
    const created = await client.createSession({ amount: '2.00', currency: 'USD' })
    // The first status update (to FUNDED) is handled, but its 200 never reaches the sandbox.
    dropAcks = 1
    await sb.pay(created.paymentSessionId)
    const seen = await until(
      () => duplicates.filter((e) => e.paymentSessionId === created.paymentSessionId),
      (list) => list.length > 0,
    )
    const handled = eventsFor(created.paymentSessionId)
    expect(handled.filter((e) => e.id === seen[0]!.id)).toHaveLength(1)
  })

  it('refuses deliveries signed with another secret, so the sandbox keeps retrying', async () => {
    events = []
    rejections = []
    handlerSecret = 'whsec_not_the_sandbox_secret'
    try {
      const created = await client.createSession({ amount: '3.00', currency: 'USD' })
      await sb.pay(created.paymentSessionId)
      await until(
        () => rejections,
        (list) => list.length >= 2,
      )
      expect(rejections.map((r) => [r.reason, r.status])).toContainEqual([
        'SIGNATURE_MISMATCH',
        401,
      ])
      expect(rejections.map((r) => r.reason)).toEqual(rejections.map(() => 'SIGNATURE_MISMATCH'))
      expect(eventsFor(created.paymentSessionId)).toHaveLength(0)
      // The service's own view still says FUNDED: the app would confirm it this way.
      const confirmed = await until(
        () =>
          confirmStatus(client, { paymentSessionId: created.paymentSessionId, status: 'FUNDED' }),
        (result) => result.matches,
      )
      expect(confirmed.paid).toBe(true)
    } finally {
      handlerSecret = webhookSecret
    }
  })
})
