// A merchant's own page, on its own origin, tries the widget against the sandbox with nothing but
// the demo's URLs: the ready-configured Sandbox Wallet and the script-tag build (docs/demo.md,
// "The sandbox wallet on your own page").
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from '@playwright/test'
import { createOrder, env, expectPaidOnce } from '../support/demo.js'
import {
  chooseToken,
  connect,
  reviewPayButton,
  setupWallet,
  waitForStep,
} from '../support/widget.js'

let server: Server
let pageUrl: string
let token = ''
let sessionId = ''

test.beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/rpc.js') {
      // The sandbox's anvil is not on 8545 in the tests: tell the widget where it is.
      res.writeHead(200, { 'content-type': 'text/javascript' })
      res.end(
        `document.querySelector('paysession-checkout').rpcUrls = { 31337: ${JSON.stringify(env.rpc)} }`,
      )
      return
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>My shop</title>
<script src="${env.demo}/sandbox-wallet.js"></script>
<script type="module" src="${env.demo}/cdn/paysession-checkout.js"></script>
</head><body><h1>My own shop</h1>
<paysession-checkout session-id="${sessionId}" session-token="${token}" api-base="${env.api}"></paysession-checkout>
<script type="module" src="/rpc.js"></script>
</body></html>`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
})

test.afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve))
})

test('the sandbox wallet on your own page: no data-config, paid once', async ({ page }) => {
  const order = await createOrder('notebook')
  const checkout = await (await fetch(`${env.demo}/api/checkout/${order.id}`)).json()
  sessionId = order.id
  token = checkout.sessionToken
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(String(error)))
  await page.goto(pageUrl)
  expect(new URL(page.url()).origin).not.toBe(new URL(env.demo).origin)
  await setupWallet(page, 0, 'autoapprove')
  await connect(page)
  await chooseToken(page, 'USDC')
  await reviewPayButton(page).click()
  await waitForStep(page, 'paid')
  await expectPaidOnce(order.id)
  expect(errors).toEqual([])
})
