import { type Sandbox, startSandbox } from '@paysession/sandbox'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  parseEventLogs,
  parseUnits,
  toHex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createPaySessionClient, type PaySessionClient } from '../src/index.js'
import { createRelayHandler, type RelayHandler } from '../src/relay.js'

// The relay against the real sandbox: anvil, the EIP-3009 test tokens, sessions over HTTP.
let sb: Sandbox
let client: PaySessionClient
let relay: RelayHandler
let publicClient: ReturnType<typeof createPublicClient>
const mintAbi = [
  {
    type: 'function',
    name: 'mint',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [],
  },
] as const
const types = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const

beforeAll(async () => {
  sb = await startSandbox({ port: 0, chainPort: 0, quiet: true, pollIntervalMs: 50 })
  client = createPaySessionClient({ baseUrl: sb.apiUrl, apiKey: sb.apiKey })
  publicClient = createPublicClient({ transport: http(sb.rpcUrl) })
  relay = createRelayHandler({
    client,
    relayer: sb.relayer.privateKey,
    networks: {
      LOCAL: {
        chainId: sb.chainId,
        rpcUrl: sb.rpcUrl,
        tokens: { USDC: sb.tokens.USDC.address, EURC: sb.tokens.EURC.address },
      },
    },
  })
}, 60_000)
afterAll(() => sb?.stop())

/** A customer holding 100 USDC and no ETH. */
async function customerWithoutGas() {
  const key = generatePrivateKey()
  const address = privateKeyToAccount(key).address
  const minter = createWalletClient({
    account: privateKeyToAccount(sb.customers[0]!.privateKey),
    transport: http(sb.rpcUrl),
  })
  const hash = await minter.writeContract({
    chain: null,
    address: sb.tokens.USDC.address,
    abi: mintAbi,
    functionName: 'mint',
    args: [address, parseUnits('100', 6)],
  })
  await publicClient.waitForTransactionReceipt({ hash })
  return { key, address }
}

async function authorize(
  key: Hex,
  to: Address,
  overrides: Partial<{ value: bigint; validAfter: bigint; validBefore: bigint }> = {},
  token: Address = sb.tokens.USDC.address,
) {
  const now = (await publicClient.getBlock()).timestamp
  const message = {
    from: privateKeyToAccount(key).address,
    to,
    value: parseUnits('10', 6),
    validAfter: 0n,
    validBefore: now + 600n,
    nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
    ...overrides,
  }
  const signature = await privateKeyToAccount(key).signTypedData({
    domain: {
      name: 'USD Coin (test)',
      version: '2',
      chainId: sb.chainId,
      verifyingContract: token,
    },
    types,
    primaryType: 'TransferWithAuthorization',
    message,
  })
  return { message, signature }
}

function post(
  paymentSessionId: string,
  { message, signature }: Awaited<ReturnType<typeof authorize>>,
  token = 'USDC',
) {
  const authorization = Object.fromEntries(
    Object.entries(message).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]),
  )
  return relay(
    new Request('http://shop.test/relay', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paymentSessionId, token, authorization, signature }),
    }),
  )
}

async function session() {
  const created = await client.createSession({ amount: '10.00', currency: 'USD' })
  return { id: created.paymentSessionId, otw: getAddress(created.oneTimeWalletAddress!) }
}

describe('relay handler', () => {
  test('submits a gasless customer’s authorization once; the session is funded by one transfer', async () => {
    const customer = await customerWithoutGas()
    const s = await session()
    const signed = await authorize(customer.key, s.otw)
    const res = await post(s.id, signed)
    expect(res.status).toBe(200)
    const { transactionHash } = (await res.json()) as { transactionHash: Hex }
    const receipt = await publicClient.waitForTransactionReceipt({ hash: transactionHash })
    expect(getAddress(receipt.from)).toBe(sb.relayer.address)
    const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs })
    expect(transfers.map((t) => [t.args.from, t.args.to, t.args.value])).toEqual([
      [customer.address, s.otw, 10_000_000n],
    ])
    // What the merchant pays per gasless payment (README, "Gasless payments").
    expect(receipt.gasUsed).toBeGreaterThan(50_000n)
    expect(receipt.gasUsed).toBeLessThan(100_000n)

    // The same authorization again answers with the same hash; a second one is refused.
    const again = await post(s.id, signed)
    expect(again.status).toBe(200)
    expect(((await again.json()) as { transactionHash: Hex }).transactionHash).toBe(transactionHash)
    let funded = await client.getSession(s.id)
    for (let i = 0; i < 100 && funded.status !== 'FUNDED'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      funded = await client.getSession(s.id)
    }
    expect(funded.status).toBe('FUNDED')
    expect(getAddress(funded.userAddress!)).toBe(customer.address)
    const second = await post(s.id, await authorize(customer.key, s.otw))
    expect(second.status).toBe(409)
    expect(await second.json()).toMatchObject({ error: { code: 'SESSION_NOT_PAYABLE' } })
    expect(await publicClient.getBalance({ address: customer.address })).toBe(0n)
  })

  test('two authorizations for one unpaid session: only the first is submitted', async () => {
    const customer = await customerWithoutGas()
    const s = await session()
    const [a, b] = await Promise.all([
      authorize(customer.key, s.otw),
      authorize(customer.key, s.otw),
    ])
    const [ra, rb] = await Promise.all([post(s.id, a), post(s.id, b)])
    expect([ra.status, rb.status].sort()).toEqual([200, 409])
    const refused = ra.status === 409 ? ra : rb
    expect(await refused.json()).toMatchObject({ error: { code: 'ALREADY_RELAYED' } })
  })

  test('refuses what does not pay this session exactly, with a typed error', async () => {
    const customer = await customerWithoutGas()
    const s = await session()
    const code = async (res: Response) => [res.status, ((await res.json()) as any).error.code]
    const other = await session()
    expect(await code(await post(s.id, await authorize(customer.key, other.otw)))).toEqual([
      422,
      'WRONG_RECIPIENT',
    ])
    expect(
      await code(await post(s.id, await authorize(customer.key, s.otw, { value: 9_999_999n }))),
    ).toEqual([422, 'WRONG_AMOUNT'])
    const now = (await publicClient.getBlock()).timestamp
    expect(
      await code(
        await post(s.id, await authorize(customer.key, s.otw, { validBefore: now + 86_400n })),
      ),
    ).toEqual([422, 'AUTHORIZATION_TOO_LONG'])
    expect(
      await code(await post(s.id, await authorize(customer.key, s.otw, { validBefore: now + 5n }))),
    ).toEqual([422, 'AUTHORIZATION_EXPIRED'])
    expect(
      await code(
        await post(s.id, await authorize(customer.key, s.otw, { validAfter: now + 100n })),
      ),
    ).toEqual([422, 'AUTHORIZATION_NOT_YET_VALID'])
    const forged = await authorize(customer.key, s.otw)
    expect(
      await code(
        await post(s.id, {
          ...forged,
          message: { ...forged.message, from: sb.customers[1]!.address },
        }),
      ),
    ).toEqual([422, 'INVALID_SIGNATURE'])
    expect(await code(await post(s.id, await authorize(customer.key, s.otw), 'USDT'))).toEqual([
      422,
      'UNSUPPORTED_TOKEN',
    ])
    expect(
      await code(await post('ps_doesnotexist0000000000000', await authorize(customer.key, s.otw))),
    ).toEqual([404, 'SESSION_NOT_FOUND'])
    const poor = generatePrivateKey()
    expect(await code(await post(s.id, await authorize(poor, s.otw)))).toEqual([
      422,
      'INSUFFICIENT_BALANCE',
    ])
    expect(await code(await relay(new Request('http://shop.test/relay')))).toEqual([
      405,
      'METHOD_NOT_ALLOWED',
    ])
    const malformed = await relay(
      new Request('http://shop.test/relay', { method: 'POST', body: '{"paymentSessionId":1}' }),
    )
    expect(await code(malformed)).toEqual([400, 'INVALID_REQUEST'])
    // Nothing of all this moved money: the session is still unpaid.
    expect((await client.getSession(s.id)).status).toMatch(/CREATED|PENDING/)
  })

  test('answers CORS preflights only for the configured origin', async () => {
    const cors = createRelayHandler({
      client,
      relayer: sb.relayer.privateKey,
      networks: {},
      allowOrigin: 'https://shop.example',
    })
    const preflight = await cors(new Request('http://relay.test/', { method: 'OPTIONS' }))
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://shop.example')
    const refused = await cors(new Request('http://relay.test/', { method: 'POST', body: '{}' }))
    expect(refused.status).toBe(400)
    expect(refused.headers.get('access-control-allow-origin')).toBe('https://shop.example')
    // Without allowOrigin there is no CORS at all.
    const plain = await relay(new Request('http://relay.test/', { method: 'OPTIONS' }))
    expect(plain.status).toBe(405)
    expect(plain.headers.get('access-control-allow-origin')).toBeNull()
  })
})
