import type { AddressInfo } from 'node:net'
import { signWebhook } from '@paysession/sandbox'
import { createWebhookHandler } from '@paysession/server'
import { toNodeListener } from '@paysession/server/node'
import express from 'express'
import { expect, test } from 'vitest'

// Why the Express recipe gives the webhook route express.raw(): the signature covers the raw
// bytes, and a JSON parser that ran first leaves only a parsed object behind.
const secret = 'whsec_express'
const body = JSON.stringify({
  jsonrpc: '2.0',
  id: 'evt_express',
  method: 'paysession_paymentStatusUpdate',
  params: [
    {
      merchantId: 'merchant_sandbox',
      paymentSessionId: 'ps_express',
      status: 'FUNDED',
      updatedAt: new Date().toISOString(),
    },
  ],
})

async function deliver(mount: (app: express.Express, listener: express.RequestHandler) => void) {
  const events: string[] = []
  const handler = createWebhookHandler({ secret, onEvent: (e) => void events.push(e.status) })
  const app = express()
  mount(app, toNodeListener(handler) as express.RequestHandler)
  const server = app.listen(0, '127.0.0.1')
  await new Promise((r) => server.once('listening', r))
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'paysession-signature': signWebhook(secret, body),
      },
      body,
    })
    return { status: res.status, events }
  } finally {
    await new Promise((r) => server.close(r))
  }
}

test('with express.raw() on the route, a signed update is verified and handled', async () => {
  const got = await deliver((app, listener) =>
    app.post('/hooks', express.raw({ type: 'application/json' }), listener),
  )
  expect(got).toEqual({ status: 200, events: ['FUNDED'] })
})

test('after express.json(), the same update is not accepted', async () => {
  const got = await deliver((app, listener) => {
    app.use(express.json())
    app.post('/hooks', listener)
  })
  expect(got.status).not.toBe(200)
  expect(got.events).toEqual([])
})
