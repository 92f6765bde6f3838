import type { Server } from 'node:http'
import { type Profile, type Sandbox, startSandbox } from '@paysession/sandbox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  confirmStatus,
  createPaySessionClient,
  createWebhookHandler,
  type PaymentStatusUpdateEvent,
  type PaySessionClient,
  waitForCapture,
} from '../src/index.js'
import { toNodeListener } from '../src/node.js'
import { close, listen, tokenBalance, until } from './helpers.js'

// The merchant's main flows against both sandbox profiles: `default` (every extension, every
// name and path variant) and `strict` (only what the spec promises). Nothing here reads a field
// the spec does not list, nor reads a session with anything but the stored session token.
describe.each<Profile>(['default', 'strict'])(
  'merchant flows against the %s profile',
  (profile) => {
    let sb: Sandbox
    let client: PaySessionClient
    let server: Server
    const events: PaymentStatusUpdateEvent[] = []

    beforeAll(async () => {
      let url: string
      ;({ server, url } = await listen(
        toNodeListener(
          createWebhookHandler({ secret: 'whsec_profiles', onEvent: (e) => void events.push(e) }),
        ),
      ))
      sb = await startSandbox({
        port: 0,
        chainPort: 0,
        quiet: true,
        profile,
        webhookUrl: url,
        webhookSecret: 'whsec_profiles',
        webhookRetryDelay: 100,
      })
      client = createPaySessionClient({ apiBase: sb.apiUrl, apiKey: sb.apiKey })
    })
    afterAll(async () => {
      await sb?.stop()
      if (server) await close(server)
    })

    /** "12.345678" (6 decimals, as tokenBalance prints) -> base units. */
    const units = (amount: string) => BigInt(amount.replace('.', ''))

    async function paidSession(amount: string, currency = 'USD', token?: string) {
      const created = await client.createSession({ amount, currency })
      const sessionToken = created.paymentSessionToken
      expect(['CREATED', 'PENDING', undefined]).toContain(created.status)
      await sb.pay(created.paymentSessionId, token ? { token } : {})
      const session = await until(
        () => client.getSession(created.paymentSessionId, { sessionToken }),
        (s) => s.status === 'FUNDED',
      )
      return { id: created.paymentSessionId, sessionToken, session }
    }

    it('creates, reads with the session token, and sees the payment (FUNDED)', async () => {
      const { session } = await paidSession('4.00')
      expect(session).toMatchObject({ status: 'FUNDED', amount: '4.00', currency: 'USD' })
      expect(session.oneTimeWalletAddress).toMatch(/^0x[0-9a-fA-F]{40}$/)
    })

    it.each([
      ['USD', 'USDT'],
      ['EUR', 'EURC'],
    ])('a %s session paid in %s is FUNDED', async (currency, token) => {
      const { session } = await paidSession('3.00', currency, token)
      expect(session.status).toBe('FUNDED')
    })

    it('partial then final capture: the rest is refunded on chain and the session SUCCEEDS', async () => {
      const usdc = sb.tokens.USDC.address
      const customer = sb.customers[0]!.address
      const { id, sessionToken } = await paidSession('10.00')
      const customerBefore = await tokenBalance(sb.rpcUrl, usdc, customer)
      const treasuryBefore = await tokenBalance(sb.rpcUrl, usdc, sb.treasury)

      const partial = await client.createCapture(id, { captureAmount: '4.00' })
      expect(partial).toMatchObject({ status: 'CAPTURING', captureAmount: '4.00' })
      expect(partial.captureId).toEqual(expect.any(String))
      const captured = await waitForCapture(client, id, partial.captureId, { interval: 100 })
      expect(captured).toMatchObject({ status: 'CAPTURED', refundAmount: '0.00' })
      expect(captured.captureTransferTransactionHash).toMatch(/^0x[0-9a-f]{64}$/)
      await until(
        () => client.getSession(id, { sessionToken }),
        (s) => s.status === 'FUNDED',
      )

      const final = await client.createCapture(id, { captureAmount: '5.00', isFinalCapture: true })
      expect(final).toMatchObject({ status: 'CAPTURING', refundAmount: '1.00' })
      const done = await waitForCapture(client, id, final.captureId, { interval: 100 })
      expect(done).toMatchObject({
        status: 'CAPTURED',
        captureAmount: '5.00',
        refundAmount: '1.00',
      })
      expect(done.refundTransferTransactionHash).toMatch(/^0x[0-9a-f]{64}$/)
      await until(
        () => client.getSession(id, { sessionToken }),
        (s) => s.status === 'SUCCEEDED',
      )
      const gained = async (owner: string, before: string) =>
        units(await tokenBalance(sb.rpcUrl, usdc, owner)) - units(before)
      expect(await gained(customer, customerBefore)).toBe(1_000_000n)
      expect(await gained(sb.treasury, treasuryBefore)).toBe(9_000_000n)
      // get capture reads the first one back under either id name.
      expect(await client.getCapture(id, partial.captureId)).toMatchObject({
        captureId: partial.captureId,
        status: 'CAPTURED',
        captureAmount: '4.00',
      })
    })

    it('confirms a webhook with the session token stored at creation', async () => {
      const { id, sessionToken } = await paidSession('2.00')
      const funded = await until(
        () => events.filter((e) => e.paymentSessionId === id && e.status === 'FUNDED'),
        (list) => list.length > 0,
      )
      const result = await confirmStatus(client, funded[0]!, { sessionToken })
      expect(result).toMatchObject({
        confirmed: true,
        status: 'FUNDED',
        matches: true,
        paid: true,
        credential: 'sessionToken',
      })
    })

    it('once the token expired: the API key where allowed, else a typed "unconfirmed"', async () => {
      const created = await client.createSession({ amount: '1.00', currency: 'USD' })
      const event = { paymentSessionId: created.paymentSessionId, status: 'PENDING' as const }
      sb.clock.advance(3601) // the default token lifetime is an hour
      const result = await confirmStatus(client, event, {
        sessionToken: created.paymentSessionToken,
      })
      if (profile === 'strict') {
        expect(result).toMatchObject({
          confirmed: false,
          reason: 'SESSION_TOKEN_EXPIRED',
          paid: false,
        })
        if (result.confirmed) throw new Error('unreachable')
        expect(result.errors.map((e) => e.code)).toEqual(['SESSION_TOKEN_EXPIRED', 'FORBIDDEN'])
        expect(await confirmStatus(client, event)).toMatchObject({
          confirmed: false,
          reason: 'NO_SESSION_TOKEN',
        })
      } else {
        expect(result).toMatchObject({ confirmed: true, credential: 'apiKey', paid: false })
      }
    })
  },
)
