import { createRequire } from 'node:module'
import { type Sandbox, setBlacklisted, setTokenPaused } from '@paysession/sandbox'
import { decodePaymentSignatureHeader } from '@x402/core/http'
import type { ClientEvmSigner } from '@x402/evm'
import { createWalletClient, getAddress, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { codeOf, type RelayKit, startRelayKit } from './relayHelpers.js'
import { accountOf, settlementOf, x402Kit } from './x402Helpers.js'

// Every refusal the relay makes is made for an x402 payment too, whichever route settles it.
let sb: Sandbox
let kit: RelayKit
let x: ReturnType<typeof x402Kit>
let routes: Record<'relay' | 'facilitator', (id: string) => string>

beforeAll(async () => {
  ;({ sb, kit } = await startRelayKit({ interval: 50 }))
  x = x402Kit(sb, kit)
  const facilitator = await x.facilitator()
  routes = {
    relay: await x.endpoint(),
    facilitator: await x.endpoint({ facilitator: facilitator.url }),
  }
}, 60_000)
afterAll(async () => {
  await x?.stop()
  await sb?.stop()
})

const artifacts = createRequire(import.meta.url)('@paysession/sandbox/artifacts/contracts.json')

/** A contract payer (ERC-1271) holding USDC, whose owner signs for it, as an x402 signer. */
async function contractPayer(): Promise<ClientEvmSigner> {
  const owner = privateKeyToAccount(sb.customers[2]!.privateKey)
  const wallet = createWalletClient({ account: owner, transport: http(sb.rpcUrl) })
  const hash = await wallet.deployContract({
    chain: null,
    abi: artifacts.TestSmartAccount.abi,
    bytecode: artifacts.TestSmartAccount.bytecode,
    args: [owner.address],
  })
  const receipt = await kit.publicClient.waitForTransactionReceipt({ hash })
  const address = getAddress(receipt.contractAddress!)
  await kit.mint(address)
  return { address, signTypedData: (data) => owner.signTypedData(data as never) }
}

describe.each(['relay', 'facilitator'] as const)('refused through the %s', (route) => {
  /** Sends what `sign` makes for a fresh session; answers the refusal; asserts nothing moved. */
  async function refusal(
    sign: (s: { id: string; otw: Hex }, url: string) => Promise<string>,
  ): Promise<unknown[]> {
    const urlOf = routes[route]
    const s = await kit.session()
    const res = await x.pay(urlOf(s.id), await sign(s, urlOf(s.id)))
    const [status, code] = await codeOf(res.clone())
    expect(settlementOf(res)).toMatchObject({ success: false, errorReason: code, transaction: '' })
    // Nothing moved and the session can still be paid.
    expect(await kit.transfersTo(s.otw)).toHaveLength(0)
    expect((await kit.client.getSession(s.id)).status).toMatch(/CREATED|PENDING/)
    expect((await fetch(urlOf(s.id))).status).toBe(402)
    return [status, code]
  }

  test('the wrong recipient', async () => {
    const customer = await kit.customerWithoutGas()
    const other = await kit.session()
    expect(
      await refusal((_, url) =>
        x.signedPayment(accountOf(customer.key), url, { payTo: other.otw }),
      ),
    ).toEqual([400, 'RELAY_REFUSED'])
  })

  test('the wrong amount', async () => {
    const customer = await kit.customerWithoutGas()
    expect(
      await refusal((_, url) =>
        x.signedPayment(accountOf(customer.key), url, { amount: '9999999' }),
      ),
    ).toEqual([422, 'WRONG_AMOUNT'])
  })

  test('expired: valid for less than a transaction needs to be mined', async () => {
    const customer = await kit.customerWithoutGas()
    expect(
      await refusal((_, url) =>
        x.signedPayment(accountOf(customer.key), url, { maxTimeoutSeconds: 5 }),
      ),
    ).toEqual([422, 'AUTHORIZATION_EXPIRED'])
  })

  test('reused: an authorization whose nonce is already used or canceled', async () => {
    const customer = await kit.customerWithoutGas()
    expect(
      await refusal(async (_, url) => {
        const header = await x.signedPayment(accountOf(customer.key), url)
        const { nonce } = (
          decodePaymentSignatureHeader(header).payload as { authorization: { nonce: Hex } }
        ).authorization
        await kit.publicClient.waitForTransactionReceipt({
          hash: await kit.cancelAuthorization(customer.key, nonce),
        })
        return header
      }),
    ).toEqual([409, 'AUTHORIZATION_USED'])
  })

  test('an EIP-7702-delegated payer not on the list', async () => {
    const customer = await kit.customerWithoutGas()
    await kit.delegate(customer.key)
    expect(await refusal((_, url) => x.signedPayment(accountOf(customer.key), url))).toEqual([
      400,
      'RELAY_REFUSED',
    ])
  })

  test('a contract payer not on the list', async () => {
    const payer = await contractPayer()
    expect(await refusal((_, url) => x.signedPayment(payer, url))).toEqual([400, 'RELAY_REFUSED'])
  })

  // Circle's FiatToken: what its issuer does, said as such, and nothing sent.
  test('the token paused by its issuer', async () => {
    const customer = await kit.customerWithoutGas()
    await setTokenPaused(sb.rpcUrl, sb.tokens.USDC, true)
    try {
      expect(await refusal((_, url) => x.signedPayment(accountOf(customer.key), url))).toEqual([
        422,
        'TOKEN_PAUSED',
      ])
    } finally {
      await setTokenPaused(sb.rpcUrl, sb.tokens.USDC, false)
    }
  })

  test('the payer blacklisted by the issuer', async () => {
    const customer = await kit.customerWithoutGas()
    const from = accountOf(customer.key).address
    await setBlacklisted(sb.rpcUrl, sb.tokens.USDC, from, true)
    try {
      expect(await refusal((_, url) => x.signedPayment(accountOf(customer.key), url))).toEqual([
        422,
        'PAYER_BLOCKED',
      ])
    } finally {
      await setBlacklisted(sb.rpcUrl, sb.tokens.USDC, from, false)
    }
  })

  test('the one-time wallet blacklisted by the issuer', async () => {
    const customer = await kit.customerWithoutGas()
    let otw: Hex | undefined
    try {
      expect(
        await refusal(async (s, url) => {
          otw = s.otw
          await setBlacklisted(sb.rpcUrl, sb.tokens.USDC, s.otw, true)
          return x.signedPayment(accountOf(customer.key), url)
        }),
      ).toEqual([422, 'RECIPIENT_BLOCKED'])
    } finally {
      if (otw) await setBlacklisted(sb.rpcUrl, sb.tokens.USDC, otw, false)
    }
  })
})

test.each(['relay', 'facilitator'] as const)(
  'a contract payer on the list pays through the %s',
  async (route) => {
    const payer = await contractPayer()
    const facilitator = route === 'facilitator' ? { facilitator: (await x.facilitator()).url } : {}
    const urlOf = await x.endpoint({ contractPayers: [payer.address], ...facilitator })
    const s = await kit.session()
    const res = await x.agent(payer).pay(urlOf(s.id))
    expect(res.status).toBe(200)
    const receipt = await kit.publicClient.waitForTransactionReceipt({
      hash: settlementOf(res).transaction as Hex,
    })
    expect(receipt.status).toBe('success')
    expect(await kit.transfersTo(s.otw)).toHaveLength(1)
  },
)

test('a second payment while the first is being settled is refused', async () => {
  const urlOf = routes.facilitator
  const s = await kit.session()
  const a = await kit.customerWithoutGas()
  const b = await kit.customerWithoutGas()
  const [first, second] = await Promise.all([
    x.signedPayment(accountOf(a.key), urlOf(s.id)),
    x.signedPayment(accountOf(b.key), urlOf(s.id)),
  ])
  const answers = await Promise.all([x.pay(urlOf(s.id), first), x.pay(urlOf(s.id), second)])
  const codes = await Promise.all(answers.map((r) => codeOf(r)))
  expect(codes.map(([status]) => status).sort()).toEqual([200, 409])
  // Refused as under way, or as paid once the service saw the first transfer.
  expect(codes.find(([status]) => status === 409)?.[1]).toMatch(
    /^(ALREADY_RELAYED|SESSION_NOT_PAYABLE)$/,
  )
  expect(await kit.transfersTo(s.otw)).toHaveLength(1)
})

test('without a session, or for one the service does not know: one refusal', async () => {
  const base = routes.relay('x').replace('?session=x', '')
  expect(await codeOf(await fetch(base))).toEqual([400, 'RELAY_REFUSED'])
  expect(await codeOf(await fetch(routes.relay('ps_doesnotexist0000000000000')))).toEqual([
    400,
    'RELAY_REFUSED',
  ])
  expect(await codeOf(await fetch(routes.relay('x'), { method: 'PUT' }))).toEqual([
    405,
    'METHOD_NOT_ALLOWED',
  ])
  const garbled = await fetch(routes.relay((await kit.session()).id), {
    headers: { 'payment-signature': 'not base64 json' },
  })
  expect(await codeOf(garbled)).toEqual([400, 'RELAY_REFUSED'])
})

test('from another origin: CORS for x402’s headers, only with allowOrigin', async () => {
  const urlOf = await x.endpoint({ allowOrigin: 'https://agent.example' })
  const s = await kit.session()
  const preflight = await fetch(urlOf(s.id), { method: 'OPTIONS' })
  expect(preflight.status).toBe(204)
  expect(preflight.headers.get('access-control-allow-origin')).toBe('https://agent.example')
  expect(preflight.headers.get('access-control-allow-headers')).toMatch(/payment-signature/)
  const unpaid = await fetch(urlOf(s.id))
  expect(unpaid.status).toBe(402)
  expect(unpaid.headers.get('access-control-expose-headers')).toBe(
    'payment-required, payment-response',
  )
  expect((await fetch(routes.relay(s.id), { method: 'OPTIONS' })).status).toBe(405)
})
