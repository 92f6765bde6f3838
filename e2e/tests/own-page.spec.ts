// A merchant's own page, on its own origin, tries the widget against the sandbox with nothing but
// the demo's URLs: the ready-configured Sandbox Wallet and the script-tag build (docs/demo.md,
// "The sandbox wallet on your own page").
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, type Page, test } from '@playwright/test'
import { type Hex, recoverMessageAddress, recoverTypedDataAddress } from 'viem'
import { createOrder, env, expectPaidOnce } from '../support/demo.js'
import {
  chooseToken,
  connect,
  reviewPayButton,
  setupWallet,
  setWalletMode,
  waitForStep,
  walletPending,
} from '../support/widget.js'

let server: Server
let pageUrl: string
let token = ''
let sessionId = ''

test.beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/wallet-only') {
      // Any page a developer visits with the wallet on it: it may ask the wallet anything.
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Any page</title>
<script src="${env.demo}/sandbox-wallet.js"></script></head><body><h1>Any page</h1></body></html>`)
      return
    }
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

/** What the wallet answers a page: the result, or the EIP-1193 error's code and message. */
const ask = (page: Page, method: string, params: unknown[] = []) =>
  page.evaluate(
    async ([m, p]) => {
      try {
        return {
          result: await (window as any).__sandboxWallet.provider.request({ method: m, params: p }),
        }
      } catch (e) {
        return { code: (e as { code: number }).code, message: (e as Error).message }
      }
    },
    [method, params] as const,
  )

test('the wallet on any page: reads go to the chain, signing asks, the rest is 4200', async ({
  page,
}) => {
  await page.goto(`${pageUrl}wallet-only`)
  // Approving everything: a method that reached the node would come back signed.
  await setupWallet(page, 0, 'autoapprove')
  const [from] = (await ask(page, 'eth_requestAccounts')).result as string[]
  expect(from).toMatch(/^0x[0-9a-fA-F]{40}$/)
  const refused = {
    eth_signTransaction: [{ from, to: from, value: '0x1', gas: '0x5208' }],
    eth_sign: [from, `0x${'11'.repeat(32)}`],
    eth_signTypedData_v3: [from, '{}'],
    eth_sendRawTransaction: ['0x02'],
    eth_somethingNew: [],
    anvil_setBalance: [from, '0x1'],
    evm_increaseTime: [60],
    personal_unlockAccount: [from, '', 0],
  }
  for (const [method, params] of Object.entries(refused)) {
    const answer = await ask(page, method, params)
    expect(answer, method).toEqual({
      code: 4200,
      message: `The Sandbox Wallet does not support ${method}.`,
    })
  }
  expect(await walletPending(page)).toEqual([])
  // Reads still work.
  expect((await ask(page, 'eth_blockNumber')).result).toMatch(/^0x[0-9a-f]+$/)
  expect((await ask(page, 'eth_getBalance', [from, 'latest'])).result).toMatch(/^0x[0-9a-f]+$/)

  // Each signing method it supports waits for the user; Reject is 4001.
  await setWalletMode(page, 'ask')
  const typed = JSON.stringify({
    types: {
      EIP712Domain: [{ name: 'name', type: 'string' }],
      Note: [{ name: 'text', type: 'string' }],
    },
    primaryType: 'Note',
    domain: { name: 'Any page' },
    message: { text: 'hello' },
  })
  for (const [method, params] of [
    ['personal_sign', ['0x68656c6c6f', from]],
    ['eth_signTypedData_v4', [from, typed]],
    ['eth_sendTransaction', [{ from, to: from, value: '0x1' }]],
  ] as const) {
    const answer = ask(page, method, [...params])
    await expect.poll(async () => (await walletPending(page)).length, { message: method }).toBe(1)
    expect((await walletPending(page))[0]!.kind).toBe(
      method === 'eth_sendTransaction' ? 'send' : 'sign',
    )
    await page.evaluate(() => (window as any).__sandboxWallet.reject())
    expect((await answer).code, method).toBe(4001)
  }
})

test('the wallet signs only as the connected account, and shows exactly what it signs', async ({
  page,
}) => {
  await page.goto(`${pageUrl}wallet-only`)
  // Approving everything: a request for another customer's signature would come back signed.
  await setupWallet(page, 0, 'autoapprove')
  const [from] = (await ask(page, 'eth_requestAccounts')).result as Hex[]
  const accounts = (await page.evaluate(() => (window as any).__sandboxWallet.accounts)) as Hex[]
  const other = accounts.find((a) => a.toLowerCase() !== from!.toLowerCase())!
  const authorization = {
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      TransferWithAuthorization: [
        { name: 'from', type: 'address' },
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' },
        { name: 'validBefore', type: 'uint256' },
        { name: 'nonce', type: 'bytes32' },
      ],
    },
    primaryType: 'TransferWithAuthorization',
    domain: { name: 'USD Coin', version: '2', chainId: 31337, verifyingContract: other },
    message: {
      from: other,
      to: from,
      value: '5000000',
      validAfter: '0',
      validBefore: '4102444800',
      nonce: `0x${'ab'.repeat(32)}`,
    },
  } as const
  const typed = JSON.stringify(authorization)
  for (const [method, params] of [
    ['personal_sign', ['0x68656c6c6f', other]],
    ['eth_signTypedData_v4', [other, typed]],
    ['eth_signTypedData_v4', [undefined, typed]],
    ['eth_sendTransaction', [{ from: other, to: from, value: '0x1' }]],
  ] as const) {
    expect(await ask(page, method, [...params]), method).toEqual({
      code: 4100,
      message: 'The requested account has not been authorized by the user.',
    })
  }
  expect(await walletPending(page)).toEqual([])

  // As the connected account (in any letter case) it signs, and the signer is that account.
  const mixed = `0x${from!.slice(2).toUpperCase()}`
  const text = await ask(page, 'personal_sign', ['0x68656c6c6f', mixed])
  expect(await recoverMessageAddress({ message: 'hello', signature: text.result as Hex })).toBe(
    from,
  )

  // The prompt names the signer and shows the whole typed data, not a summary of it.
  await setWalletMode(page, 'ask')
  const answer = ask(page, 'eth_signTypedData_v4', [from, typed])
  await expect.poll(async () => (await walletPending(page)).length).toBe(1)
  const rows = Object.fromEntries((await walletPending(page))[0]!.rows!)
  expect(rows['Authorize a transfer of']).toBeDefined()
  expect(rows.From).toBe(other)
  expect(rows['Signed as']).toBe(from)
  expect(JSON.parse(rows['Signs exactly']!)).toEqual(authorization)
  await page.evaluate(() => (window as any).__sandboxWallet.approve())
  const signature = (await answer).result as Hex
  expect(await recoverTypedDataAddress({ ...(authorization as any), signature })).toBe(from)
})
