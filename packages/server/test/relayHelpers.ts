import { createServer, request as httpRequest } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import {
  type Sandbox,
  type SandboxOptions,
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
  keccak256,
  type PublicClient,
  parseAbi,
  parseEther,
  parseUnits,
  toHex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createPaySessionClient, type PaySessionClient } from '../src/index.js'
import { claimKey } from '../src/relay/claims.js'
import {
  type RelayRecord,
  type RelayStore,
  serializeRecord,
  type TransferAuthorization,
} from '../src/relay/types.js'
import {
  createMemoryRelayStoreForTestsOnly,
  createRelayHandler,
  type RelayHandler,
  type RelayHandlerOptions,
} from '../src/relay.js'

/** USDC is Circle's FiatToken in the sandbox, which mints only for its minters: tests fund by a transfer from customer 0. */
export const mintAbi = [
  {
    type: 'function',
    name: 'mint',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
] as const

export const transferAbi = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [],
  },
] as const

export type Signed = { message: TransferAuthorization; signature: Hex }

export type RelayKit = {
  publicClient: PublicClient
  client: PaySessionClient
  /** The sandbox's chain and its USDC and EURC, as a relay's `networks`. */
  networks: RelayHandlerOptions['networks']
  relayWith(options?: Partial<RelayHandlerOptions>): RelayHandler
  mint(address: Address, amount?: string): Promise<void>
  customerWithoutGas(): Promise<{ key: Hex; address: Address }>
  authorize(
    key: Hex,
    to: Address,
    overrides?: Partial<Signed['message']>,
    token?: Address,
  ): Promise<Signed>
  relayRequest(paymentSessionId: string, signed: Signed, token?: string): Request
  session(amount?: string): Promise<{ id: string; otw: Address }>
  transfersTo(otw: Address): Promise<unknown[]>
  relayerNonce(): Promise<number>
  cancelAuthorization(key: Hex, nonce: Hex, fees?: CancelFees): Promise<Hex>
  delegate(key: Hex): Promise<void>
  /** Gives `address` 10 ETH, for gas (another relayer key). */
  fund(address: Address): Promise<void>
}

/** Fees for a cancellation sent while a transfer it cancels is pending (not estimated then). */
type CancelFees = { maxPriorityFeePerGas: bigint; maxFeePerGas: bigint; gas: bigint }

const cancelTypes = {
  CancelAuthorization: [
    { name: 'authorizer', type: 'address' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const
// Not in protocol's ABI: only tests cancel an authorization.
const cancelAbi = parseAbi([
  'function cancelAuthorization(address authorizer, bytes32 nonce, bytes signature)',
])

/** A sandbox on free ports for a test file, and its relay kit. */
export async function startRelayKit(options: Partial<SandboxOptions> = {}) {
  const sb = await startSandbox({ port: 0, chainPort: 0, quiet: true, ...options })
  return { sb, kit: relayKit(sb) }
}

/** The relay's test kit for one sandbox: customers, authorizations, sessions, posts. */
export function relayKit(sb: Sandbox): RelayKit {
  const publicClient: PublicClient = createPublicClient({ transport: http(sb.rpcUrl) })
  const client = createPaySessionClient({ apiBase: sb.apiUrl, apiKey: sb.apiKey })
  // The sandbox's token deployer is a FiatToken minter: customers are funded as an issuer would.
  const minter = createWalletClient({
    account: privateKeyToAccount(keccak256(toHex('paysession.sandbox.deployer.v1'))),
    transport: http(sb.rpcUrl),
  })

  const networks = {
    LOCAL: {
      chainId: sb.chainId,
      rpcUrl: sb.rpcUrl,
      tokens: { USDC: sb.tokens.USDC.address, EURC: sb.tokens.EURC.address },
    },
  }

  /** A relay for the sandbox's tokens: each call is a freshly (re)started relay process. */
  function relayWith(options: Partial<RelayHandlerOptions> = {}): RelayHandler {
    return createRelayHandler({
      client,
      relayer: sb.relayer.privateKey,
      networks,
      store: createMemoryRelayStoreForTestsOnly(),
      ...options,
    })
  }

  /** Mints USDC to `address` (a customer without ETH, or a contract payer). */
  async function mint(address: Address, amount = '100') {
    const hash = await minter.writeContract({
      chain: null,
      address: sb.tokens.USDC.address,
      abi: mintAbi,
      functionName: 'mint',
      args: [address, parseUnits(amount, 6)],
    })
    await publicClient.waitForTransactionReceipt({ hash })
  }

  /** A customer holding 100 USDC and no ETH. */
  async function customerWithoutGas() {
    const key = generatePrivateKey()
    const address = privateKeyToAccount(key).address
    await mint(address)
    return { key, address }
  }

  /** An authorization signed by `key`, for `from` (the key's address, or a contract payer). */
  async function authorize(
    key: Hex,
    to: Address,
    overrides: Partial<Signed['message']> = {},
    token: Address = sb.tokens.USDC.address,
  ): Promise<Signed> {
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
        name: 'USD Coin',
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

  function relayRequest(paymentSessionId: string, { message, signature }: Signed, token = 'USDC') {
    const authorization = Object.fromEntries(
      Object.entries(message).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]),
    )
    return new Request('http://shop.test/relay', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paymentSessionId, token, authorization, signature }),
    })
  }

  async function session(amount = '10.00') {
    const created = await client.createSession({ amount, currency: 'USD' })
    return { id: created.paymentSessionId, otw: getAddress(created.oneTimeWalletAddress!) }
  }

  const transfersTo = (otw: Address) =>
    publicClient.getContractEvents({
      address: sb.tokens.USDC.address,
      abi: erc20Abi,
      eventName: 'Transfer',
      args: { to: otw },
      fromBlock: 0n,
    })

  const relayerNonce = () =>
    publicClient.getTransactionCount({ address: sb.relayer.address, blockTag: 'pending' })

  /**
   * The payer cancels an authorization's nonce on chain (EIP-3009 `cancelAuthorization`), sent by
   * someone with gas; the hash, not waited for (a test may hold the block).
   */
  async function cancelAuthorization(key: Hex, nonce: Hex, fees?: CancelFees) {
    const payer = privateKeyToAccount(key)
    const signature = await payer.signTypedData({
      domain: {
        name: 'USD Coin',
        version: '2',
        chainId: sb.chainId,
        verifyingContract: sb.tokens.USDC.address,
      },
      types: cancelTypes,
      primaryType: 'CancelAuthorization',
      message: { authorizer: payer.address, nonce },
    })
    return createWalletClient({
      account: privateKeyToAccount(sb.customers[3]!.privateKey),
      transport: http(sb.rpcUrl),
    }).writeContract({
      chain: null,
      address: sb.tokens.USDC.address,
      abi: cancelAbi,
      functionName: 'cancelAuthorization',
      args: [payer.address, nonce, signature],
      ...fees,
    })
  }

  /**
   * Delegates the customer's own account by EIP-7702 (a sponsor sends the delegation) to a
   * contract that answers ERC-1271 for the customer's key: it keeps its key, and now has code
   * the token would run.
   */
  async function delegate(key: Hex) {
    const artifacts = createRequire(import.meta.url)('@paysession/sandbox/artifacts/contracts.json')
    const customer = privateKeyToAccount(key)
    const sponsor = createWalletClient({
      account: privateKeyToAccount(sb.customers[2]!.privateKey),
      transport: http(sb.rpcUrl),
    })
    const deployed = await publicClient.waitForTransactionReceipt({
      hash: await sponsor.deployContract({
        chain: null,
        abi: artifacts.TestGasBurningPayer.abi,
        bytecode: artifacts.TestGasBurningPayer.bytecode,
        args: [customer.address],
      }),
    })
    const authorization = await customer.signAuthorization({
      contractAddress: deployed.contractAddress!,
      chainId: sb.chainId,
      nonce: 0,
    })
    await publicClient.waitForTransactionReceipt({
      hash: await sponsor.sendTransaction({
        chain: null,
        authorizationList: [authorization],
        // Any call carries the delegation; the delegate has no fallback to call.
        to: sponsor.account.address,
      }),
    })
    const code = await publicClient.getCode({ address: customer.address })
    if (!code?.startsWith('0xef0100')) throw new Error(`${customer.address} is not delegated`)
  }

  const fund = (address: Address) =>
    createTestClient({ mode: 'anvil', transport: http(sb.rpcUrl) }).setBalance({
      address,
      value: parseEther('10'),
    })

  return {
    fund,
    publicClient,
    client,
    networks,
    cancelAuthorization,
    delegate,
    relayWith,
    mint,
    customerWithoutGas,
    authorize,
    relayRequest,
    session,
    transfersTo,
    relayerNonce,
  }
}

export const codeOf = async (res: Response) => [
  res.status,
  ((await res.json()) as { error?: { code?: string } }).error?.code,
]

export const hashOf = async (res: Response) =>
  ((await res.json()) as { transactionHash: Hex }).transactionHash

/**
 * An HTTP proxy in front of `target` that counts the requests it forwards: how many calls the
 * relay made to the service or to the chain.
 */
export async function countingProxy(target: string) {
  let count = 0
  const upstream = new URL(target)
  const server = createServer((req, res) => {
    count++
    const forwarded = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    forwarded.on('error', () => res.destroy())
    req.pipe(forwarded)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname === '/' ? '' : upstream.pathname}`,
    get count() {
      return count
    },
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** Writes a session's claim as an instance would have left it. */
export async function putClaim(store: RelayStore, sessionId: string, record: RelayRecord) {
  const key = claimKey(sessionId)
  if (!(await store.compareAndSet(key, serializeRecord(record), await store.get(key))))
    throw new Error('the claim changed meanwhile')
}

/** A session's claim as stored, if any. */
export async function claimOf(store: RelayStore, sessionId: string) {
  const text = await store.get(claimKey(sessionId))
  return text ? (JSON.parse(text) as RelayRecord) : undefined
}
