import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  eip3009Abi,
  type Sandbox,
  startSandbox,
  transferWithAuthorizationTypes as types,
} from '@paysession/sandbox'
import {
  type Address,
  createPublicClient,
  createTestClient,
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
import {
  createFileRelayStore,
  createRelayHandler,
  type RelayHandler,
  type RelayHandlerOptions,
} from '../src/relay.js'

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

beforeAll(async () => {
  sb = await startSandbox({ port: 0, chainPort: 0, quiet: true, pollIntervalMs: 50 })
  client = createPaySessionClient({ baseUrl: sb.apiUrl, apiKey: sb.apiKey })
  publicClient = createPublicClient({ transport: http(sb.rpcUrl) })
  relay = relayWith()
}, 60_000)

/** A relay for the sandbox's tokens: each call is a freshly (re)started relay process. */
function relayWith(options: Partial<RelayHandlerOptions> = {}, of: Sandbox = sb) {
  return createRelayHandler({
    client: createPaySessionClient({ apiBase: of.apiUrl, apiKey: of.apiKey }),
    relayer: of.relayer.privateKey,
    networks: {
      LOCAL: {
        chainId: of.chainId,
        rpcUrl: of.rpcUrl,
        tokens: { USDC: of.tokens.USDC.address, EURC: of.tokens.EURC.address },
      },
    },
    ...options,
  })
}
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
  to: RelayHandler = relay,
) {
  const authorization = Object.fromEntries(
    Object.entries(message).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]),
  )
  return to(
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
    // What the merchant pays per gasless payment (docs/gasless.md).
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

const hashOf = async (res: Response) =>
  ((await res.json()) as { transactionHash: Hex }).transactionHash

// What a restart of the relay means. EIP-3009: `transferWithAuthorization` marks (from, nonce)
// used in `authorizationState` before it moves anything, and refuses a used one ("authorization
// is used or canceled"): a second on-chain submission of the same authorization reverts.
describe('after a restart', () => {
  const testClient = () => createTestClient({ mode: 'anvil', transport: http(sb.rpcUrl) })
  const transfersTo = async (otw: Address) =>
    publicClient.getContractEvents({
      address: sb.tokens.USDC.address,
      abi: erc20Abi,
      eventName: 'Transfer',
      args: { to: otw },
      fromBlock: 0n,
    })

  test('memory store: the same authorization again never moves money twice', async () => {
    const customer = await customerWithoutGas()
    const s = await session()
    const signed = await authorize(customer.key, s.otw)
    await testClient().setAutomine(false)
    let first: Hex
    try {
      first = await hashOf(await post(s.id, signed, 'USDC', relayWith()))
      // Restarted before the transfer was mined: the memory store forgot it. anvil estimates
      // gas against its pending transactions, so the relay is refused before it sends.
      const restarted = await post(s.id, signed, 'USDC', relayWith())
      expect(restarted.status).toBe(409)
      expect(((await restarted.json()) as any).error.code).toBe('AUTHORIZATION_USED')
      await testClient().mine({ blocks: 1 })
    } finally {
      await testClient().setAutomine(true)
    }
    expect((await publicClient.waitForTransactionReceipt({ hash: first })).status).toBe('success')
    // A node that estimates against the latest block would send it: on chain it reverts, as
    // this submission of the same authorization, with the gas set by hand, shows.
    const { message, signature } = signed
    const relayer = createWalletClient({
      account: privateKeyToAccount(sb.relayer.privateKey),
      transport: http(sb.rpcUrl),
    })
    const replay = await relayer.writeContract({
      chain: null,
      address: sb.tokens.USDC.address,
      abi: eip3009Abi,
      functionName: 'transferWithAuthorization',
      args: [
        message.from,
        message.to,
        message.value,
        message.validAfter,
        message.validBefore,
        message.nonce,
        signature,
      ],
      gas: 200_000n,
    })
    expect((await publicClient.waitForTransactionReceipt({ hash: replay })).status).toBe('reverted')
    expect(await transfersTo(s.otw)).toHaveLength(1)
    // Restarted again once it is mined: refused before anything is sent.
    const third = await post(s.id, signed, 'USDC', relayWith())
    expect(third.status).toBe(409)
    expect(((await third.json()) as any).error.code).toMatch(
      /AUTHORIZATION_USED|SESSION_NOT_PAYABLE/,
    )
    expect(await transfersTo(s.otw)).toHaveLength(1)
  })

  test('file store: a restarted relay answers with the same hash and refuses a second authorization', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-store-'))
    const file = join(dir, 'relay.json')
    try {
      const customer = await customerWithoutGas()
      const s = await session()
      const signed = await authorize(customer.key, s.otw)
      await testClient().setAutomine(false)
      let first: Hex
      try {
        first = await hashOf(
          await post(s.id, signed, 'USDC', relayWith({ store: createFileRelayStore(file) })),
        )
        expect(JSON.parse(readFileSync(file, 'utf8'))[s.id]).toMatchObject({ hash: first })
        const restarted = relayWith({ store: createFileRelayStore(file) })
        const again = await post(s.id, signed, 'USDC', restarted)
        expect(again.status).toBe(200)
        expect(await hashOf(again)).toBe(first)
        // Another authorization for the same session, while the first can still run: refused.
        const other = await post(s.id, await authorize(customer.key, s.otw), 'USDC', restarted)
        expect(other.status).toBe(409)
        expect(((await other.json()) as any).error.code).toBe('ALREADY_RELAYED')
        await testClient().mine({ blocks: 1 })
      } finally {
        await testClient().setAutomine(true)
      }
      expect((await publicClient.waitForTransactionReceipt({ hash: first })).status).toBe('success')
      expect(await transfersTo(s.otw)).toHaveLength(1)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('a service that lets only the session token read a session (strict profile)', () => {
  let strict: Sandbox
  beforeAll(async () => {
    strict = await startSandbox({ port: 0, chainPort: 0, quiet: true, profile: 'strict' })
  }, 60_000)
  afterAll(() => strict?.stop())

  test('with sessionTokenOf the relay reads with the stored token and submits', async () => {
    const merchant = createPaySessionClient({ apiBase: strict.apiUrl, apiKey: strict.apiKey })
    const created = await merchant.createSession({ amount: '10.00', currency: 'USD' })
    const id = created.paymentSessionId
    const tokens = new Map([[id, created.paymentSessionToken]])
    // The strict create answer is the short one: the one-time wallet is read with the token.
    const otw = getAddress(
      (await merchant.getSession(id, { sessionToken: created.paymentSessionToken }))
        .oneTimeWalletAddress!,
    )
    const key = generatePrivateKey()
    const minter = createWalletClient({
      account: privateKeyToAccount(strict.customers[0]!.privateKey),
      transport: http(strict.rpcUrl),
    })
    const strictChain = createPublicClient({ transport: http(strict.rpcUrl) })
    await strictChain.waitForTransactionReceipt({
      hash: await minter.writeContract({
        chain: null,
        address: strict.tokens.USDC.address,
        abi: mintAbi,
        functionName: 'mint',
        args: [privateKeyToAccount(key).address, parseUnits('100', 6)],
      }),
    })
    const now = (await strictChain.getBlock()).timestamp
    const message = {
      from: privateKeyToAccount(key).address,
      to: otw,
      value: parseUnits('10', 6),
      validAfter: 0n,
      validBefore: now + 600n,
      nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
    }
    const signature = await privateKeyToAccount(key).signTypedData({
      domain: {
        name: 'USD Coin (test)',
        version: '2',
        chainId: strict.chainId,
        verifyingContract: strict.tokens.USDC.address,
      },
      types,
      primaryType: 'TransferWithAuthorization',
      message,
    })
    const withoutToken = await post(id, { message, signature }, 'USDC', relayWith({}, strict))
    expect(withoutToken.status).toBe(503) // the API key may not read the session
    const withToken = relayWith({ sessionTokenOf: (sessionId) => tokens.get(sessionId) }, strict)
    const res = await post(id, { message, signature }, 'USDC', withToken)
    expect(res.status).toBe(200)
    const receipt = await strictChain.waitForTransactionReceipt({ hash: await hashOf(res) })
    expect(receipt.status).toBe('success')
  })
})
