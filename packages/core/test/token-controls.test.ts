// Circle's FiatToken refuses a transfer while paused, or from or to a blacklisted address. The
// checkout reads both before any prompt and says which, with a typed code and a sentence the
// customer can act on; the wallet is never asked.

import { customerMessages } from '@paysession/protocol'
import { LOCAL_TOKENS, setBlacklisted, setTokenPaused } from '@paysession/sandbox'
import type { Hex } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  connectAndChoose,
  createSession,
  createTestWallet,
  paySessionConfig,
  type Sandbox,
  startSandbox,
  testWalletWagmi,
  waitForStep,
  withCheckout,
} from './support.js'

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0, chainPort: 0, quiet: true })
})
afterAll(async () => {
  await sb?.stop()
})

const usdc = LOCAL_TOKENS.find((t) => t.symbol === 'USDC')!
const signing = ['eth_sendTransaction', 'eth_signTypedData_v4', 'personal_sign']

test.each([
  ['TOKEN_PAUSED', 2],
  ['RECIPIENT_BLOCKED', 3],
  ['PAYER_BLOCKED', 4],
] as const)('%s: said before any prompt, and nothing is sent', async (code, index) => {
  const customer = sb.customers[index]!
  const session = await createSession(sb, '5.00')
  const { wallet, provider } = createTestWallet(sb.rpcUrl, customer.address)
  const config = paySessionConfig(sb, testWalletWagmi(sb, provider))
  // What the issuer does, and how it is undone for the next case.
  const target = (code === 'PAYER_BLOCKED' ? customer.address : session.oneTimeWalletAddress) as Hex
  const set = (on: boolean) =>
    code === 'TOKEN_PAUSED'
      ? setTokenPaused(sb.rpcUrl, usdc, on)
      : setBlacklisted(sb.rpcUrl, usdc, target, on)
  await set(true)
  try {
    await withCheckout(config, session, async (checkout) => {
      await connectAndChoose(checkout, 'testWallet', 'USDC')
      await waitForStep(checkout, 'review')
      await checkout.pay()
      const state = await waitForStep(checkout, 'chooseToken')
      expect(state.error?.code).toBe(code)
      expect(state.error?.shortMessage).toBe(customerMessages[code])
      expect(wallet.requests.filter((r) => signing.includes(r.method))).toEqual([])
    })
  } finally {
    await set(false)
  }
})
