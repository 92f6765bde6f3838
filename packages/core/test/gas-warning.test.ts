import { parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  anvilRpc,
  createSession,
  createTestWallet,
  paySessionConfig,
  type Sandbox,
  startSandbox,
  testWalletWagmi,
  waitForStep,
  withCheckout,
} from './support.js'

// The no-gas notice tells a customer the network fee cannot be paid: true only when the fee
// would come out of this account's own empty balance.
let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0, chainPort: 0, quiet: true })
})
afterAll(async () => {
  await sb?.stop()
})

const setEth = (address: string, wei: bigint) =>
  anvilRpc(sb, 'anvil_setBalance', [address, `0x${wei.toString(16)}`])

async function tokenStep(account: `0x${string}`, capabilities?: Record<string, object>) {
  const { wallet, provider } = createTestWallet(sb.rpcUrl, account)
  wallet.capabilities = capabilities as never
  const session = await createSession(sb, '5.00', 'USD')
  return withCheckout(
    paySessionConfig(sb, testWalletWagmi(sb, provider)),
    session,
    async (checkout) => {
      await waitForStep(checkout, 'chooseWallet')
      await checkout.connect('testWallet')
      const state = await waitForStep(checkout, ['chooseToken', 'review'])
      expect(state.account).toBe(account)
      expect(state.tokens.some((t) => t.sufficient)).toBe(true)
      return { state, requests: wallet.requests.map((r) => r.method) }
    },
  )
}

describe('gas warning', () => {
  test('a plain account with no ETH is warned; with ETH it is not asked about capabilities', async () => {
    const customer = sb.customers[2]!.address
    const funded = await tokenStep(customer)
    expect(funded.state.gasWarning).toBe(false)
    expect(funded.requests).not.toContain('wallet_getCapabilities')
    await setEth(customer, 0n)
    try {
      const { state, requests } = await tokenStep(customer)
      expect(state.gasWarning).toBe(true)
      expect(requests).toContain('wallet_getCapabilities')
    } finally {
      await setEth(customer, parseEther('10000'))
    }
  })

  test('a wallet that reports a paymaster for this chain (or all chains) pays the fee: no warning', async () => {
    const customer = sb.customers[3]!.address
    await setEth(customer, 0n)
    try {
      const sponsored = { paymasterService: { supported: true } }
      expect((await tokenStep(customer, { '0x7a69': sponsored })).state.gasWarning).toBe(false)
      expect((await tokenStep(customer, { '0x0': sponsored })).state.gasWarning).toBe(false)
      // A paymaster on another chain, or only atomic batches, pays nothing here.
      expect((await tokenStep(customer, { '0x1': sponsored })).state.gasWarning).toBe(true)
      const atomic = { '0x7a69': { atomic: { status: 'supported' } } }
      expect((await tokenStep(customer, atomic)).state.gasWarning).toBe(true)
    } finally {
      await setEth(customer, parseEther('10000'))
    }
  })

  test('a smart account (contract) with no ETH is not warned: its bundler pays', async () => {
    const smart = sb.accounts.smartAccount.address
    expect(BigInt(await anvilRpc<string>(sb, 'eth_getBalance', [smart, 'latest']))).toBe(0n)
    expect((await tokenStep(smart)).state.gasWarning).toBe(false)
  })

  test('an EIP-7702 delegated account still pays its own fee: warned', async () => {
    const customer = sb.customers[4]!.address
    await setEth(customer, 0n)
    await anvilRpc(sb, 'anvil_setCode', [
      customer,
      `0xef0100${sb.accounts.smartAccount.address.slice(2)}`,
    ])
    try {
      expect((await tokenStep(customer)).state.gasWarning).toBe(true)
    } finally {
      await anvilRpc(sb, 'anvil_setCode', [customer, '0x'])
      await setEth(customer, parseEther('10000'))
    }
  })
})
