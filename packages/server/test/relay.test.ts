import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type Sandbox,
  startSandbox,
  transferWithAuthorizationTypes as types,
} from '@paysession/sandbox'
import {
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
import { createPaySessionClient, isPaySessionError, type PaySessionClient } from '../src/index.js'
import { createFileRelayStore } from '../src/node.js'
import { createRelayHandler, type RelayHandler, type RelayHandlerOptions } from '../src/relay.js'
import {
  codeOf,
  hashOf,
  relayKit,
  type Signed,
  startRelayKit,
  transferAbi,
} from './relayHelpers.js'

// The relay against the real sandbox: anvil, the EIP-3009 test tokens, sessions over HTTP.
let sb: Sandbox
let kit: ReturnType<typeof relayKit>
let client: PaySessionClient
let relay: RelayHandler
let publicClient: ReturnType<typeof createPublicClient>

beforeAll(async () => {
  ;({ sb, kit } = await startRelayKit({ interval: 50 }))
  ;({ client, publicClient } = kit)
  // These tests post many refusals for one session: the rate limit has its own test.
  relay = kit.relayWith({ rateLimit: false })
}, 60_000)
afterAll(() => sb?.stop())

function relayWith(options: Partial<RelayHandlerOptions> = {}) {
  return kit.relayWith({ rateLimit: false, ...options })
}
const customerWithoutGas = () => kit.customerWithoutGas()
const authorize = (...args: Parameters<typeof kit.authorize>) => kit.authorize(...args)
const session = () => kit.session()
function post(paymentSessionId: string, signed: Signed, token = 'USDC', to: RelayHandler = relay) {
  return to(kit.relayRequest(paymentSessionId, signed, token))
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
    expect(receipt.gasUsed).toBeLessThan(120_000n)

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
    const code = codeOf
    const generic = [400, 'RELAY_REFUSED']
    const other = await session()
    // Before the relay knows the caller holds the session: one answer for all.
    expect(await code(await post(s.id, await authorize(customer.key, other.otw)))).toEqual(generic)
    const now = (await publicClient.getBlock()).timestamp
    expect(
      await code(
        await post(s.id, await authorize(customer.key, s.otw, { validBefore: now + 86_400n })),
      ),
    ).toEqual(generic)
    expect(
      await code(
        await post(s.id, await authorize(customer.key, s.otw, { validAfter: now + 100n })),
      ),
    ).toEqual(generic)
    const forged = await authorize(customer.key, s.otw)
    expect(
      await code(
        await post(s.id, {
          ...forged,
          message: { ...forged.message, from: sb.customers[1]!.address },
        }),
      ),
    ).toEqual(generic)
    expect(await code(await post(s.id, await authorize(customer.key, s.otw), 'USDT'))).toEqual(
      generic,
    )
    expect(
      await code(await post('ps_doesnotexist0000000000000', await authorize(customer.key, s.otw))),
    ).toEqual(generic)
    const malformed = await relay(
      new Request('http://shop.test/relay', { method: 'POST', body: '{"paymentSessionId":1}' }),
    )
    expect(await code(malformed)).toEqual(generic)
    // With the session's one-time wallet the caller holds the session: precise answers.
    expect(
      await code(await post(s.id, await authorize(customer.key, s.otw, { value: 9_999_999n }))),
    ).toEqual([422, 'WRONG_AMOUNT'])
    expect(
      await code(await post(s.id, await authorize(customer.key, s.otw, { validBefore: now + 5n }))),
    ).toEqual([422, 'AUTHORIZATION_EXPIRED'])
    const poor = generatePrivateKey()
    expect(await code(await post(s.id, await authorize(poor, s.otw)))).toEqual([
      422,
      'INSUFFICIENT_BALANCE',
    ])
    expect(await code(await relay(new Request('http://shop.test/relay')))).toEqual([
      405,
      'METHOD_NOT_ALLOWED',
    ])
    // Nothing of all this moved money: the session is still unpaid.
    expect((await client.getSession(s.id)).status).toMatch(/CREATED|PENDING/)
  })

  test('answers CORS preflights only for the configured origin', async () => {
    const cors = relayWith({ networks: {}, allowOrigin: 'https://shop.example' })
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

describe('after a restart', () => {
  const testClient = () => createTestClient({ mode: 'anvil', transport: http(sb.rpcUrl) })
  const transfersTo = (otw: Hex) => kit.transfersTo(otw)

  test('options are checked when the relay is built, each mistake named', () => {
    const refusal = (options: Partial<RelayHandlerOptions>) => {
      try {
        relayWith(options)
      } catch (error) {
        return isPaySessionError(error, 'INVALID_CONFIG') ? error.shortMessage : String(error)
      }
      return 'built'
    }
    // A get/set/delete store of before: get-then-set is a race between instances.
    const getSetOnly = { get: () => undefined, set: () => {}, delete: () => {} }
    expect(refusal({ store: getSetOnly as never })).toMatch(/no compareAndSet\(\)/)
    expect(refusal({ maxValiditySeconds: Number.NaN })).toMatch(/maxValiditySeconds/)
    expect(refusal({ minValiditySeconds: -1 })).toMatch(/minValiditySeconds/)
    expect(refusal({ maxGas: 0n })).toMatch(/maxGas/)
    expect(refusal({ maxBodyBytes: Number.POSITIVE_INFINITY })).toMatch(/maxBodyBytes/)
    expect(
      refusal({ networks: { LOCAL: { chainId: 1.5, rpcUrl: sb.rpcUrl, tokens: {} } } }),
    ).toMatch(/chainId/)
    expect(
      refusal({ networks: { LOCAL: { chainId: 1, rpcUrl: 'localhost:8545', tokens: {} } } }),
    ).toMatch(/rpcUrl/)
    expect(refusal({})).toBe('built')
  })

  test('a store is required; with the file store a relay restarted while the first transfer is pending refuses a second authorization', async () => {
    // The README's setup once had no store and a restarted relay paid a session twice.
    let refused: unknown
    try {
      const withoutStore = { client, relayer: sb.relayer.privateKey, networks: {} }
      createRelayHandler(withoutStore as unknown as RelayHandlerOptions)
    } catch (error) {
      refused = error
    }
    expect(isPaySessionError(refused, 'INVALID_CONFIG')).toBe(true)
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
        expect(JSON.parse(JSON.parse(readFileSync(file, 'utf8'))[`claim:${s.id}`])).toMatchObject({
          hash: first,
        })
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
        abi: transferAbi,
        functionName: 'transfer',
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
        name: 'USD Coin',
        version: '2',
        chainId: strict.chainId,
        verifyingContract: strict.tokens.USDC.address,
      },
      types,
      primaryType: 'TransferWithAuthorization',
      message,
    })
    // Both sandboxes' chains are 31337 and viem's nonce manager counts per (address, chain id):
    // this chain gets a relayer of its own.
    const relayer = generatePrivateKey()
    await createTestClient({ mode: 'anvil', transport: http(strict.rpcUrl) }).setBalance({
      address: privateKeyToAccount(relayer).address,
      value: parseUnits('10', 18),
    })
    const withoutToken = await post(
      id,
      { message, signature },
      'USDC',
      relayKit(strict).relayWith({ rateLimit: false, relayer }),
    )
    expect(withoutToken.status).toBe(503) // the API key may not read the session
    const withToken = relayKit(strict).relayWith({
      rateLimit: false,
      relayer,
      sessionTokenOf: (sessionId) => tokens.get(sessionId),
    })
    const res = await post(id, { message, signature }, 'USDC', withToken)
    expect(res.status).toBe(200)
    const receipt = await strictChain.waitForTransactionReceipt({ hash: await hashOf(res) })
    expect(receipt.status).toBe('success')
  })
})
