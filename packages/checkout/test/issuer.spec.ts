// What Circle's FiatToken adds: its issuer can pause USDC or blacklist an address. The element
// says each case with its sentence before any wallet prompt, and the wallet is asked for nothing.
// The test plays the issuer on the sandbox's chain (the deployer holds the pauser and blacklister
// roles), and undoes it, since the chain is shared with the other specs.

import { expect, test } from '@playwright/test'
import { customerMessages } from '../../protocol/dist/index.js'
import { LOCAL_TOKENS, setBlacklisted, setTokenPaused } from '../../sandbox/dist/index.js'
import {
  createSession,
  dialog,
  env,
  events,
  openPage,
  reviewWithTestWallet,
  transfersTo,
  waitForStep,
} from './support.js'

const usdc = LOCAL_TOKENS.find((t) => t.symbol === 'USDC')!
const prompts = ['eth_sendTransaction', 'eth_signTypedData_v4', 'personal_sign', 'eth_sign']

for (const code of ['TOKEN_PAUSED', 'PAYER_BLOCKED', 'RECIPIENT_BLOCKED'] as const)
  test(`the issuer refuses USDC (${code}): its sentence before any prompt, nothing sent`, async ({
    page,
  }) => {
    const session = await createSession('5.00')
    await openPage(page, session)
    await reviewWithTestWallet(page)
    const read = await fetch(`${env.api}/api/v1/payment-sessions/${session.paymentSessionId}`, {
      headers: { authorization: `Bearer ${env.apiKey}` },
    })
    const otw = (await read.json()).oneTimeWalletAddress as `0x${string}`
    const target = code === 'PAYER_BLOCKED' ? (env.customer as `0x${string}`) : otw
    const set = (on: boolean) =>
      code === 'TOKEN_PAUSED'
        ? setTokenPaused(env.rpc, usdc, on)
        : setBlacklisted(env.rpc, usdc, target, on)
    await set(true)
    try {
      await dialog(page).getByRole('button', { name: /^Pay / }).click()
      await waitForStep(page, 'chooseToken')
      await expect(dialog(page).getByRole('alert')).toHaveText(customerMessages[code])
      expect((await events(page)).find((e) => e.type === 'paysession-error')?.detail).toMatchObject(
        { code },
      )
      const calls: string[] = await page.evaluate(() => (window as any).__wallet.calls)
      expect(calls.filter((method) => prompts.includes(method))).toEqual([])
      expect(await transfersTo(session)).toBe(0)
    } finally {
      await set(false)
    }
  })
