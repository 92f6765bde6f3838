import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  keccak256,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { localChain } from './clients.js'

/** EIP-3009 as Circle's FiatToken v2 has it (the test USDC and EURC implement it; USDT does not). */
export const eip3009Abi = [
  {
    type: 'function',
    name: 'transferWithAuthorization',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'from', type: 'address' },
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'validAfter', type: 'uint256' },
      { name: 'validBefore', type: 'uint256' },
      { name: 'nonce', type: 'bytes32' },
      { name: 'signature', type: 'bytes' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'authorizationState',
    stateMutability: 'view',
    inputs: [
      { name: 'authorizer', type: 'address' },
      { name: 'nonce', type: 'bytes32' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
  {
    type: 'function',
    name: 'name',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'string' }],
  },
  {
    type: 'function',
    name: 'version',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'string' }],
  },
] as const

export const transferWithAuthorizationTypes = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const

/** The relayer the CLI's `pay --gasless` submits from; the sandbox gives it ETH at start. */
export const RELAYER_KEY: Hex = keccak256(toHex('paysession.sandbox.relayer.v1'))

/**
 * Pays `to` with an EIP-3009 authorization the customer signs (no gas needed on their side),
 * submitted by the relayer, which pays the gas. Returns the transaction hash once mined.
 */
export async function transferWithAuthorization(options: {
  rpcUrl: string
  customerKey: Hex
  relayerKey?: Hex
  token: Address
  to: Address
  value: bigint
  validForSeconds?: number
}): Promise<Hex> {
  const chain = localChain(options.rpcUrl)
  const transport = http(options.rpcUrl)
  const publicClient = createPublicClient({ chain, transport })
  const customer = privateKeyToAccount(options.customerKey)
  const read = (functionName: 'name' | 'version') =>
    publicClient.readContract({ address: options.token, abi: eip3009Abi, functionName })
  const [name, version, block] = await Promise.all([
    read('name'),
    read('version'),
    publicClient.getBlock(),
  ])
  const message = {
    from: customer.address,
    to: options.to,
    value: options.value,
    validAfter: 0n,
    validBefore: block.timestamp + BigInt(options.validForSeconds ?? 600),
    nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
  }
  const signature = await customer.signTypedData({
    domain: { name, version, chainId: chain.id, verifyingContract: options.token },
    types: transferWithAuthorizationTypes,
    primaryType: 'TransferWithAuthorization',
    message,
  })
  const relayer = createWalletClient({
    account: privateKeyToAccount(options.relayerKey ?? RELAYER_KEY),
    chain,
    transport,
  })
  const hash = await relayer.writeContract({
    address: options.token,
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
  })
  await publicClient.waitForTransactionReceipt({ hash })
  return hash
}
