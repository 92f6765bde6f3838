import { type Address, createWalletClient, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { localChain } from './clients.js'
import { erc20Abi } from './tokens.js'

/** Anvil's well-known dev keys (mnemonic "test test ... junk"): the sandbox's test customers. */
export const CUSTOMER_KEYS: Hex[] = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
]

export const customers = () =>
  CUSTOMER_KEYS.map((privateKey) => ({
    address: privateKeyToAccount(privateKey).address,
    privateKey,
  }))

/** A real ERC-20 transfer from a test customer; returns the transaction hash once mined. */
export async function transferToken(options: {
  rpcUrl: string
  privateKey: Hex
  token: Address
  to: Address
  value: bigint
}): Promise<Hex> {
  const chain = localChain(options.rpcUrl)
  const wallet = createWalletClient({
    account: privateKeyToAccount(options.privateKey),
    chain,
    transport: http(options.rpcUrl),
  })
  return wallet.writeContract({
    address: options.token,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [options.to, options.value],
  })
}
