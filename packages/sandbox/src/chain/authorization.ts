import { eip3009Abi, transferWithAuthorizationTypes } from '@paysession/protocol'
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

export { eip3009Abi, transferWithAuthorizationTypes }

/** The relayer the CLI's `pay --gasless` submits from; the sandbox gives it ETH at start. */
export const RELAYER_KEY: Hex = keccak256(toHex('paysession.sandbox.relayer.v1'))

/** The gas limit of the relayer's transaction, as `createRelayHandler`'s default `maxGas`. */
export const RELAYER_MAX_GAS = 150_000n

/**
 * Pays `to` with an EIP-3009 authorization the customer signs (no gas needed on their side),
 * submitted by the relayer, which pays the gas, simulated first and sent with a gas limit.
 * Returns the transaction hash once mined.
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
  const { request } = await publicClient.simulateContract({
    account: relayer.account,
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
    gas: RELAYER_MAX_GAS,
  })
  const hash = await relayer.writeContract(request)
  await publicClient.waitForTransactionReceipt({ hash })
  return hash
}
