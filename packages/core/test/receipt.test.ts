import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createPublicClient, createWalletClient, erc20Abi, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { waitForPaymentReceipt } from '../src/chain/waitForPaymentReceipt.js'
import { systemClock } from '../src/exports/index.js'
import { localChain, type Sandbox, startSandbox } from './support.js'

// A node that names a block before it serves the receipts in it (anvil right after an automined
// transaction, a load-balanced RPC): viem's wait looks again only at a new block, and an idle
// chain makes none. The payment's receipt must still be found, on a later look.

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0, chainPort: 0, quiet: true })
})
afterAll(() => sb?.stop())

/** A real JSON-RPC proxy in front of anvil that answers `null` for `hash`'s receipt until `until`. */
async function startLaggingRpc(target: string, hash: Hex, until: number) {
  let hidden = 0
  const server = createServer((req, res) => {
    let text = ''
    req.on('data', (chunk) => {
      text += chunk
    })
    req.on('end', async () => {
      const request = JSON.parse(text) as { id: unknown; method: string; params?: unknown[] }
      const hide =
        request.method === 'eth_getTransactionReceipt' &&
        request.params?.[0] === hash &&
        Date.now() < until
      if (hide) hidden++
      const body = hide
        ? { jsonrpc: '2.0', id: request.id, result: null }
        : await (
            await fetch(target, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: text,
            })
          ).json()
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hidden: () => hidden,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

test('a receipt the node served late is found without waiting for another block', async () => {
  const customer = sb.customers[3]!
  const token = sb.tokens.USDC.address
  const to = '0x000000000000000000000000000000000000dEaD'
  const chain = localChain(sb.rpcUrl)
  const direct = createPublicClient({ chain, transport: http(sb.rpcUrl) })
  const fromBlock = await direct.getBlockNumber({ cacheTime: 0 })
  const wallet = createWalletClient({
    account: privateKeyToAccount(customer.privateKey),
    chain,
    transport: http(sb.rpcUrl),
  })
  const hash = await wallet.writeContract({
    address: token,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to, 1n],
  })
  // Mined at once (automine): from here on no block is made.
  const mined = await direct.waitForTransactionReceipt({ hash })
  const rpc = await startLaggingRpc(sb.rpcUrl, hash, Date.now() + 500)
  try {
    const client = createPublicClient({ chain, transport: http(rpc.url), pollingInterval: 100 })
    const started = Date.now()
    const receipt = await waitForPaymentReceipt(client, {
      hash,
      payment: { token, from: customer.address, to, fromBlock },
      pollingInterval: 100,
      timeout: 10_000,
      clock: systemClock,
    })
    expect(receipt.transactionHash).toBe(hash)
    expect(rpc.hidden()).toBeGreaterThan(0)
    // Found on a look after the node began serving it, well before the time-out.
    expect(Date.now() - started).toBeLessThan(3_000)
    expect(await direct.getBlockNumber({ cacheTime: 0 })).toBe(mined.blockNumber)
  } finally {
    await rpc.close()
  }
})
