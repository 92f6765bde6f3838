import type { Address, Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { sendWithCalls } from '../src/exports/calls.js'
import { getSession, payWithWallet } from '../src/exports/index.js'
import {
  anvilRpc,
  createSession,
  createTestWallet,
  paySessionConfig,
  type Sandbox,
  startSandbox,
  testWalletWagmi,
} from './support.js'

// ERC-7677 through EIP-5792: the merchant's paymaster service goes to the wallet in
// `wallet_sendCalls`' `capabilities.paymasterService`, and only to a wallet that reported it
// can use one on the session's chain. The wallet here runs the call from the customer's
// (anvil-unlocked) account; the real sponsored path (a bundler, a paymaster contract) is the
// e2e suite's (e2e/tests/real-wallets.spec.ts).

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0, chainPort: 0, quiet: true })
})
afterAll(async () => {
  await sb?.stop()
})

const paymasterUrl = 'https://paymaster.example/api/v2/31337'

/** A wallet that speaks EIP-5792 and reports `capabilities`; returns what `wallet_sendCalls` got. */
async function pay(options: { capabilities: Record<string, object>; paymasterUrl?: string }) {
  const account = sb.customers[4]!.address as Address
  const { wallet, provider } = createTestWallet(sb.rpcUrl, account)
  wallet.capabilities = options.capabilities as never
  const sent: { calls: { to: Address; data: Hex }[]; capabilities?: Record<string, unknown> }[] = []
  const bundles = new Map<string, Hex>()
  const request = provider.request
  provider.request = async (args: { method: string; params?: unknown }) => {
    if (args.method === 'wallet_sendCalls') {
      const [bundle] = args.params as [(typeof sent)[number]]
      sent.push(bundle)
      const hash = await anvilRpc<Hex>(sb, 'eth_sendTransaction', [
        { from: account, ...bundle.calls[0] },
      ])
      const id = `0x${crypto.randomUUID().replaceAll('-', '')}`
      bundles.set(id, hash)
      return { id }
    }
    if (args.method === 'wallet_getCallsStatus') {
      const id = (args.params as [string])[0]
      const receipt = await anvilRpc(sb, 'eth_getTransactionReceipt', [bundles.get(id)])
      return {
        version: '2.0.0',
        id,
        chainId: '0x7a69',
        atomic: true,
        status: receipt ? 200 : 100,
        ...(receipt ? { receipts: [receipt] } : {}),
      }
    }
    return request(args)
  }
  const wagmi = testWalletWagmi(sb, provider)
  const config = {
    ...paySessionConfig(sb, wagmi),
    ...(options.paymasterUrl ? { paymasterUrl: options.paymasterUrl } : {}),
  }
  const { connect } = await import('@wagmi/core')
  await connect(wagmi, { connector: wagmi.connectors[0]! })
  const created = await createSession(sb, '2.00')
  const session = await getSession(config, {
    sessionId: created.paymentSessionId,
    sessionToken: created.paymentSessionToken,
  })
  const result = await payWithWallet(config, {
    session,
    sessionToken: created.paymentSessionToken,
    token: 'USDC',
    sendCalls: sendWithCalls,
  })
  expect(sent).toHaveLength(1)
  expect(result.hash).toBe([...bundles.values()][0])
  return sent[0]!
}

describe('sponsored gas (ERC-7677 paymaster service)', () => {
  const sponsored = { atomic: { status: 'supported' }, paymasterService: { supported: true } }

  test('a wallet that reports paymasterService for the chain is given the merchant’s paymaster', async () => {
    const bundle = await pay({ capabilities: { '0x7a69': sponsored }, paymasterUrl })
    expect(bundle.capabilities).toEqual({ paymasterService: { url: paymasterUrl } })
  })

  test('no paymaster for a wallet that cannot use one here, or when the merchant offers none', async () => {
    const atomicOnly = { '0x7a69': { atomic: { status: 'supported' } } }
    expect((await pay({ capabilities: atomicOnly, paymasterUrl })).capabilities).toBeUndefined()
    const elsewhere = { '0x1': sponsored, '0x7a69': { atomic: { status: 'supported' } } }
    expect((await pay({ capabilities: elsewhere, paymasterUrl })).capabilities).toBeUndefined()
    expect((await pay({ capabilities: { '0x7a69': sponsored } })).capabilities).toBeUndefined()
  })
})
