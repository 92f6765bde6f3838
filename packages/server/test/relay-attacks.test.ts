import { request as httpRequest, type Server } from 'node:http'
import { createRequire } from 'node:module'
import { type Sandbox, setBlacklisted, setTokenPaused } from '@paysession/sandbox'
import { createTestClient, createWalletClient, getAddress, http, parseGwei, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createPaySessionClient, createWebhookHandler } from '../src/index.js'
import { toNodeListener } from '../src/node.js'
import { owed } from '../src/relay/chainChecks.js'
import {
  createMemoryRelayStoreForTestsOnly,
  createTokenBucketRateLimit,
  type RelayHandler,
  type RelayRecord,
} from '../src/relay.js'
import { close, listen, secret } from './helpers.js'
import {
  claimOf,
  codeOf,
  countingProxy,
  hashOf,
  putClaim,
  type RelayKit,
  startRelayKit,
} from './relayHelpers.js'

// The relay tried as an attacker would, against the real sandbox (anvil, the EIP-3009 tokens).
let sb: Sandbox
let kit: RelayKit
const testClient = () => createTestClient({ mode: 'anvil', transport: http(sb.rpcUrl) })

beforeAll(async () => {
  ;({ sb, kit } = await startRelayKit({ interval: 50 }))
}, 60_000)
afterAll(() => sb?.stop())

/** Runs `work` with anvil mining only on request (a transaction stays pending). */
async function withoutAutomine<T>(work: () => Promise<T>): Promise<T> {
  await testClient().setAutomine(false)
  try {
    return await work()
  } finally {
    await testClient().setAutomine(true)
  }
}

const artifacts = createRequire(import.meta.url)('@paysession/sandbox/artifacts/contracts.json')

/** A contract payer whose owner (a funded sandbox account) signs for it. */
async function deployPayer(contract: 'TestGasBurningPayer' | 'TestSmartAccount') {
  const ownerKey = sb.customers[2]!.privateKey
  const owner = createWalletClient({
    account: privateKeyToAccount(ownerKey),
    transport: http(sb.rpcUrl),
  })
  const hash = await owner.deployContract({
    chain: null,
    abi: artifacts[contract].abi,
    bytecode: artifacts[contract].bytecode,
    args: [owner.account.address],
  })
  const receipt = await kit.publicClient.waitForTransactionReceipt({ hash })
  const address = getAddress(receipt.contractAddress!)
  await kit.mint(address)
  const configure = async (burn: bigint, refuse: boolean, tip = parseGwei('1')) =>
    owner.writeContract({
      chain: null,
      address,
      abi: artifacts.TestGasBurningPayer.abi,
      functionName: 'configure',
      args: [burn, refuse],
      maxPriorityFeePerGas: tip,
      maxFeePerGas: tip + parseGwei('10'),
    })
  return { address, ownerKey, configure }
}

describe('contract payers (ERC-1271) cannot drain the relayer', () => {
  test('refused unless allowed; an allowed one is held to the gas limit, also when it turns invalid before mining', async () => {
    const burner = await deployPayer('TestGasBurningPayer')
    const s = await kit.session()
    const signed = await kit.authorize(burner.ownerKey, s.otw, { from: burner.address })
    const nonceBefore = await kit.relayerNonce()

    // By default no contract payer: its signature check would run its code at our expense.
    const byDefault = kit.relayWith()
    expect(await codeOf(await byDefault(kit.relayRequest(s.id, signed)))).toEqual([
      400,
      'RELAY_REFUSED',
    ])

    // Allowed, but burning gas in isValidSignature: refused on the simulation, nothing sent.
    const allowing = kit.relayWith({ contractPayers: [burner.address], maxGas: 150_000n })
    await kit.publicClient.waitForTransactionReceipt({
      hash: await burner.configure(50_000n, false),
    })
    expect(await codeOf(await allowing(kit.relayRequest(s.id, signed)))).toEqual([
      422,
      'GAS_LIMIT_EXCEEDED',
    ])
    expect(await kit.relayerNonce()).toBe(nonceBefore)

    // Cheap when simulated, then turned invalid and costly before the transaction is mined:
    // the transaction fails, and costs the relayer at most the gas limit.
    await kit.publicClient.waitForTransactionReceipt({ hash: await burner.configure(10n, false) })
    const sent = await withoutAutomine(async () => {
      const res = await allowing(kit.relayRequest(s.id, signed))
      expect(res.status).toBe(200)
      const hash = await hashOf(res)
      await burner.configure(50_000n, true, parseGwei('50')) // mined first: a higher tip
      await testClient().mine({ blocks: 1 })
      return hash
    })
    const receipt = await kit.publicClient.waitForTransactionReceipt({ hash: sent })
    expect(receipt.status).toBe('reverted')
    const transaction = await kit.publicClient.getTransaction({ hash: sent })
    expect(transaction.gas).toBeLessThanOrEqual(150_000n)
    expect(receipt.gasUsed).toBeLessThanOrEqual(150_000n)
    expect(await kit.transfersTo(s.otw)).toHaveLength(0)
  })

  test('an allowed honest smart account pays gaslessly', async () => {
    const account = await deployPayer('TestSmartAccount')
    const s = await kit.session()
    const signed = await kit.authorize(account.ownerKey, s.otw, { from: account.address })
    const res = await kit.relayWith({ contractPayers: (a) => a === account.address })(
      kit.relayRequest(s.id, signed),
    )
    expect(res.status).toBe(200)
    const receipt = await kit.publicClient.waitForTransactionReceipt({ hash: await hashOf(res) })
    expect(receipt.status).toBe('success')
    expect(await kit.transfersTo(s.otw)).toHaveLength(1)
  })
})

test('eight sessions paid at the same moment are all relayed, each by one transfer', async () => {
  const relay = kit.relayWith()
  const payments = []
  for (let i = 0; i < 8; i++) {
    const [customer, s] = await Promise.all([kit.customerWithoutGas(), kit.session()])
    payments.push({ s, signed: await kit.authorize(customer.key, s.otw) })
  }
  const answers = await Promise.all(
    payments.map(({ s, signed }) => relay(kit.relayRequest(s.id, signed))),
  )
  expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200))
  const hashes = await Promise.all(answers.map(hashOf))
  for (const hash of hashes)
    expect((await kit.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success')
  for (const { s } of payments) expect(await kit.transfersTo(s.otw)).toHaveLength(1)
})

describe('once per session, as the chain judges it', () => {
  test('an authorization canceled after the relay sent it frees the session', async () => {
    const customer = await kit.customerWithoutGas()
    const s = await kit.session()
    const relay = kit.relayWith({ store: createMemoryRelayStoreForTestsOnly() })
    const first = await kit.authorize(customer.key, s.otw)
    const sent = await withoutAutomine(async () => {
      const hash = await hashOf(await relay(kit.relayRequest(s.id, first)))
      // The payer cancels it; someone with gas submits the cancellation, mined first.
      await kit.cancelAuthorization(customer.key, first.message.nonce, {
        maxPriorityFeePerGas: parseGwei('50'),
        maxFeePerGas: parseGwei('60'),
        gas: 100_000n, // not estimated against the pending transfer it cancels
      })
      await testClient().mine({ blocks: 1 })
      return hash
    })
    expect((await kit.publicClient.waitForTransactionReceipt({ hash: sent })).status).toBe(
      'reverted',
    )
    const again = await relay(kit.relayRequest(s.id, await kit.authorize(customer.key, s.otw)))
    expect(again.status).toBe(200)
    const receipt = await kit.publicClient.waitForTransactionReceipt({ hash: await hashOf(again) })
    expect(receipt.status).toBe('success')
    expect(await kit.transfersTo(s.otw)).toHaveLength(1)
  })

  test('an earlier authorization blocks the session while it may still be mined: unsent within its lease, or sent with a relayer nonce not spent yet', async () => {
    const customer = await kit.customerWithoutGas()
    const s = await kit.session()
    const store = createMemoryRelayStoreForTestsOnly()
    const relay = kit.relayWith({ store })
    const block = await kit.publicClient.getBlock()
    const next = await kit.relayerNonce()
    expect(next).toBeGreaterThan(0)
    const earlier = (validBefore: bigint, sent: Partial<RelayRecord> = {}): RelayRecord => ({
      from: customer.address,
      nonce: `0x${'ab'.repeat(32)}`,
      validBefore: validBefore.toString(),
      network: 'LOCAL',
      token: sb.tokens.USDC.address,
      fromBlock: block.number.toString(),
      claimedAt: Date.now(),
      ...sent,
    })
    const sent = { relayer: sb.relayer.address, relayerNonce: next }
    const refused = async (record: RelayRecord) => {
      await putClaim(store, s.id, record)
      return codeOf(await relay(kit.relayRequest(s.id, await kit.authorize(customer.key, s.otw))))
    }
    // Claimed and not sent yet, within its lease; sent with the relayer's next nonce.
    expect(await refused(earlier(block.timestamp + 300n))).toEqual([409, 'ALREADY_RELAYED'])
    expect(await refused(earlier(block.timestamp + 300n, sent))).toEqual([409, 'ALREADY_RELAYED'])
    // Never minable: sent with a nonce the relayer already spent, once a later block shows the
    // authorization still unused; or expired.
    const [spent] = await Promise.all([
      refused(earlier(block.timestamp + 300n, { ...sent, relayerNonce: next - 1 })),
      new Promise((r) => setTimeout(r, 500)).then(() => testClient().mine({ blocks: 1 })),
    ])
    expect(spent).toEqual([200, undefined])
    const s2 = await kit.session()
    await putClaim(store, s2.id, earlier(block.timestamp - 1n, sent))
    const res = await relay(kit.relayRequest(s2.id, await kit.authorize(customer.key, s2.otw)))
    expect(res.status).toBe(200)
  })

  test('a failed broadcast records nothing: the session stays payable', async () => {
    // A node that refuses every eth_sendRawTransaction, and answers everything else.
    const { server, url } = await listen(async (req, res) => {
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      const body = Buffer.concat(chunks).toString()
      if (body.includes('eth_sendRawTransaction')) {
        res.setHeader('content-type', 'application/json')
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: JSON.parse(body).id,
            error: { code: -32000, message: 'txpool is full' },
          }),
        )
        return
      }
      const answer = await fetch(sb.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
      res.setHeader('content-type', 'application/json')
      res.end(await answer.text())
    })
    try {
      const customer = await kit.customerWithoutGas()
      const s = await kit.session()
      const store = createMemoryRelayStoreForTestsOnly()
      const broken = kit.relayWith({
        store,
        networks: {
          LOCAL: { chainId: sb.chainId, rpcUrl: url, tokens: { USDC: sb.tokens.USDC.address } },
        },
      })
      expect(
        await codeOf(
          await broken(kit.relayRequest(s.id, await kit.authorize(customer.key, s.otw))),
        ),
      ).toEqual([503, 'RELAY_UNAVAILABLE'])
      expect(await claimOf(store, s.id)).toBeUndefined()
      const res = await kit.relayWith({ store })(
        kit.relayRequest(s.id, await kit.authorize(customer.key, s.otw)),
      )
      expect(res.status).toBe(200)
      await kit.publicClient.waitForTransactionReceipt({ hash: await hashOf(res) })
      expect(await kit.transfersTo(s.otw)).toHaveLength(1)
    } finally {
      await close(server)
    }
  })

  test('the store is keyed by the id the service answers, not the caller’s spelling', async () => {
    const customer = await kit.customerWithoutGas()
    const s = await kit.session()
    // A service that reads " ps_…" as "ps_…" (here: the merchant's client trims).
    const client = createPaySessionClient({ apiBase: sb.apiUrl, apiKey: sb.apiKey })
    const relay = kit.relayWith({
      client: { getSession: (id, options) => client.getSession(id.trim(), options) },
    })
    await withoutAutomine(async () => {
      const first = await relay(
        kit.relayRequest(` ${s.id}`, await kit.authorize(customer.key, s.otw)),
      )
      expect(first.status).toBe(200)
      const second = await relay(kit.relayRequest(s.id, await kit.authorize(customer.key, s.otw)))
      expect(await codeOf(second)).toEqual([409, 'ALREADY_RELAYED'])
      await testClient().mine({ blocks: 1 })
    })
    expect(await kit.transfersTo(s.otw)).toHaveLength(1)
  })
})

test('refusals before the relay knows the caller holds the session cost no API or RPC call', async () => {
  const api = await countingProxy(sb.apiUrl)
  const rpc = await countingProxy(sb.rpcUrl)
  try {
    const relay = kit.relayWith({
      client: createPaySessionClient({ apiBase: api.url, apiKey: sb.apiKey }),
      networks: {
        LOCAL: { chainId: sb.chainId, rpcUrl: rpc.url, tokens: { USDC: sb.tokens.USDC.address } },
      },
      rateLimit: false,
    })
    const customer = await kit.customerWithoutGas()
    const s = await kit.session()
    // The token's EIP-712 domain is read once, by the first request.
    await relay(kit.relayRequest(s.id, await kit.authorize(customer.key, s.otw, { value: 1n })))
    const [apiBefore, rpcBefore] = [api.count, rpc.count]
    const now = BigInt(Math.floor(Date.now() / 1000))
    const stranger = generatePrivateKey()
    const forged = await kit.authorize(stranger, s.otw)
    const attempts = [
      kit.relayRequest(s.id, { ...forged, message: { ...forged.message, from: customer.address } }),
      kit.relayRequest(s.id, await kit.authorize(customer.key, s.otw, { validBefore: now - 120n })),
      kit.relayRequest(
        s.id,
        await kit.authorize(customer.key, s.otw, { validBefore: now + 86_400n }),
      ),
      kit.relayRequest(s.id, await kit.authorize(customer.key, s.otw, { validAfter: now + 3600n })),
      kit.relayRequest(s.id, await kit.authorize(customer.key, s.otw), 'USDT'),
      kit.relayRequest(s.id, await kit.authorize(customer.key, s.otw, { value: 0n })),
      new Request('http://shop.test/relay', { method: 'POST', body: '{"paymentSessionId":"x"}' }),
    ]
    const answers = await Promise.all(
      attempts.map(async (request) => (await relay(request)).text()),
    )
    // One answer for all, byte for byte.
    expect(new Set(answers)).toEqual(
      new Set([
        JSON.stringify({
          error: {
            code: 'RELAY_REFUSED',
            message: 'This authorization cannot be submitted. Please sign the payment again.',
          },
        }),
      ]),
    )
    expect([api.count - apiBefore, rpc.count - rpcBefore]).toEqual([0, 0])
  } finally {
    await Promise.all([api.close(), rpc.close()])
  }
})

describe('limits', () => {
  test('below the relayer balance floor or above the fee ceiling: refused, nothing sent', async () => {
    const customer = await kit.customerWithoutGas()
    const s = await kit.session()
    const network = (extra: object) => ({
      LOCAL: {
        chainId: sb.chainId,
        rpcUrl: sb.rpcUrl,
        tokens: { USDC: sb.tokens.USDC.address },
        ...extra,
      },
    })
    const nonce = await kit.relayerNonce()
    const poorRelayer = kit.relayWith({
      networks: network({ minRelayerBalance: parseUnits('1', 30) }),
    })
    expect(
      await codeOf(
        await poorRelayer(kit.relayRequest(s.id, await kit.authorize(customer.key, s.otw))),
      ),
    ).toEqual([503, 'RELAYER_UNDERFUNDED'])
    const cheap = kit.relayWith({ networks: network({ maxFeePerGas: 1n }) })
    expect(
      await codeOf(await cheap(kit.relayRequest(s.id, await kit.authorize(customer.key, s.otw)))),
    ).toEqual([503, 'FEE_TOO_HIGH'])
    expect(await kit.relayerNonce()).toBe(nonce)
    // Every relayed transaction carries the gas limit and the fee ceiling.
    const res = await kit.relayWith({
      maxGas: 120_000n,
      networks: network({ maxFeePerGas: parseGwei('20') }),
    })(kit.relayRequest(s.id, await kit.authorize(customer.key, s.otw)))
    const transaction = await kit.publicClient.getTransaction({ hash: await hashOf(res) })
    expect(transaction.gas).toBeLessThanOrEqual(120_000n)
    expect(transaction.maxFeePerGas).toBeLessThanOrEqual(parseGwei('20'))
  })

  test('the default rate limit: per session, and per IP through toNodeListener', async () => {
    const customer = await kit.customerWithoutGas()
    const s = await kit.session()
    const relay = kit.relayWith({ rateLimit: undefined })
    // At once, so that the bucket has no time to refill whatever the machine's load.
    const signed = await Promise.all(
      Array.from({ length: 7 }, () => kit.authorize(customer.key, s.otw, { value: 1n })),
    )
    const answers = await Promise.all(signed.map((x) => relay(kit.relayRequest(s.id, x))))
    const statuses = answers.map((r) => r.status).sort()
    expect(statuses).toEqual([422, 422, 422, 422, 422, 422, 429])

    const perIp = kit.relayWith({
      rateLimit: createTokenBucketRateLimit({ ip: { burst: 2, perSecond: 0 } }),
    })
    const { server, url } = await listen(toNodeListener(perIp))
    try {
      const codes = []
      for (let i = 0; i < 3; i++)
        codes.push((await fetch(url, { method: 'POST', body: '{}' })).status)
      expect(codes).toEqual([400, 400, 429])
    } finally {
      await close(server)
    }
    // The bucket refills with time.
    let now = 0
    const limit = createTokenBucketRateLimit({ session: { burst: 1, perSecond: 0.5 } }, () => now)
    expect([limit('session:a'), limit('session:a'), limit('session:b')]).toEqual([
      true,
      false,
      true,
    ])
    now = 2000
    expect(limit('session:a')).toBe(true)
  })
})

test('owed() counts only what was received in the relayed token, and is 0 once enough arrived', () => {
  const session = { paymentSessionId: 'ps_1', status: 'PENDING' as const, amount: '10.00' }
  expect(owed({ ...session, tokenSymbol: 'USDC', receivedAmount: '4' }, 'USDC', 6)).toBe(6_000_000n)
  expect(owed({ ...session, tokenSymbol: 'USDC', receivedAmount: '4' }, 'EURC', 6)).toBe(
    10_000_000n,
  )
  expect(owed({ ...session, tokenSymbol: 'USDC', receivedAmount: '10' }, 'USDC', 6)).toBe(0n)
  expect(owed({ ...session, tokenSymbol: 'USDC', receivedAmount: '12.5' }, 'usdc', 6)).toBe(0n)
  expect(owed({ ...session, receivedAmount: '0' }, 'USDC', 6)).toBe(10_000_000n)
})

describe('bodies are limited while they stream (413)', () => {
  /** A body that never ends: only a reader that stops at its limit answers. */
  const endless = () =>
    new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new Uint8Array(64 * 1024).fill(32)),
    })
  const post = (body: ReadableStream<Uint8Array>) =>
    new Request('http://shop.test/', { method: 'POST', body, duplex: 'half' } as RequestInit)
  const webhooks = () => createWebhookHandler({ secret, onEvent: () => undefined })

  test('fetch-style: the relay and the webhook handler', async () => {
    expect(await codeOf(await kit.relayWith()(post(endless())))).toEqual([413, 'PAYLOAD_TOO_LARGE'])
    expect((await webhooks()(post(endless()))).status).toBe(413)
  })

  test.each([
    ['relay', () => kit.relayWith() as RelayHandler],
    ['webhook handler', webhooks],
  ])('toNodeListener: the %s answers while the client is still sending', async (_, make) => {
    const { server, url } = await listen(toNodeListener(make()))
    try {
      expect(await sendEndlessly(server, url)).toBe(413)
    } finally {
      await close(server)
    }
  })
})

/** POSTs chunk after chunk (no content-length) until the server answers: its status. */
function sendEndlessly(_server: Server, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    })
    let answered = false
    request.on('response', (response) => {
      answered = true
      response.resume()
      resolve(response.statusCode ?? 0)
      request.destroy()
    })
    request.on('error', (error) => {
      if (!answered) reject(error)
    })
    const chunk = Buffer.alloc(64 * 1024, 32)
    const write = () => {
      while (!answered && request.write(chunk)) {}
      if (!answered) request.once('drain', write)
    }
    write()
  })
}

// Circle's FiatToken: what its issuer does is said as such, before any gas is spent.
describe("the token's issuer refuses the transfer", () => {
  const cases = [
    ['the token paused', 'TOKEN_PAUSED'],
    ['the one-time wallet blacklisted', 'RECIPIENT_BLOCKED'],
    ['the payer blacklisted', 'PAYER_BLOCKED'],
  ] as const
  test.each(cases)('%s: 422 %s, nothing sent, payable once lifted', async (_, code) => {
    const relay = kit.relayWith()
    const customer = await kit.customerWithoutGas()
    const s = await kit.session()
    const signed = await kit.authorize(customer.key, s.otw)
    const usdc = sb.tokens.USDC
    const set = (on: boolean) =>
      code === 'TOKEN_PAUSED'
        ? setTokenPaused(sb.rpcUrl, usdc, on)
        : setBlacklisted(sb.rpcUrl, usdc, code === 'PAYER_BLOCKED' ? customer.address : s.otw, on)
    const nonceBefore = await kit.relayerNonce()
    await set(true)
    try {
      expect(await codeOf(await relay(kit.relayRequest(s.id, signed)))).toEqual([422, code])
      expect(await kit.relayerNonce()).toBe(nonceBefore)
      expect(await kit.transfersTo(s.otw)).toHaveLength(0)
    } finally {
      await set(false)
    }
    // The refusal kept nothing: the same authorization pays once the issuer lifts it.
    const res = await relay(kit.relayRequest(s.id, signed))
    expect(res.status).toBe(200)
    await kit.publicClient.waitForTransactionReceipt({ hash: await hashOf(res) })
    expect(await kit.transfersTo(s.otw)).toHaveLength(1)
  })
})
