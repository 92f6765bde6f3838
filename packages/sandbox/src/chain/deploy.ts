import { type Address, createWalletClient, custom, type Hex, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { ChainClients } from './clients.js'
import { DEPLOYER_KEY, erc20Abi, LOCAL_TOKENS } from './tokens.js'

/** The compiled contracts, `artifacts/contracts.json` (read from disk in Node, bundled in a page). */
export type Artifacts = Record<string, { abi: unknown[]; bytecode: Hex }>

/**
 * Deploys the test tokens at their fixed addresses (skipping those already there,
 * as after a restart from saved state) and funds the test customers once.
 */
export async function deployTokens(
  artifacts: Artifacts,
  clients: ChainClients,
  customers: Address[],
  mintPerCustomer = 10_000n,
): Promise<{ deployed: boolean; eip3009: boolean }> {
  const { publicClient, testClient, chain } = clients
  const code = await publicClient.getCode({ address: LOCAL_TOKENS[0]!.address })
  if (code && code !== '0x') {
    // A chain state saved before the tokens had EIP-3009 keeps their old code.
    const eip3009 = await publicClient
      .call({ to: LOCAL_TOKENS[0]!.address, data: '0x54fd4d50' }) // version()
      .then(
        ({ data }) => !!data && data !== '0x',
        () => false,
      )
    return { deployed: false, eip3009 }
  }

  const deployer = privateKeyToAccount(DEPLOYER_KEY)
  // Through the public client's transport: anvil over HTTP, or any EIP-1193 provider.
  const wallet = createWalletClient({ account: deployer, chain, transport: custom(publicClient) })
  await testClient.setBalance({ address: deployer.address, value: parseEther('1000') })
  const nonce = await publicClient.getTransactionCount({ address: deployer.address })
  if (nonce !== 0)
    throw new Error(`deployer nonce is ${nonce}, expected 0: token addresses would differ`)

  for (const token of LOCAL_TOKENS) {
    const artifact = artifacts[token.contract]!
    const hash = await wallet.deployContract({
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args: [token.name, token.symbol, token.decimals],
    })
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    if (receipt.contractAddress?.toLowerCase() !== token.address.toLowerCase())
      throw new Error(
        `${token.symbol} deployed at ${receipt.contractAddress}, expected ${token.address}`,
      )
  }
  let last: Hex | undefined
  for (const token of LOCAL_TOKENS)
    for (const to of customers)
      last = await wallet.writeContract({
        address: token.address,
        abi: erc20Abi,
        functionName: 'mint',
        args: [to, mintPerCustomer * 10n ** BigInt(token.decimals)],
      })
  if (last) await publicClient.waitForTransactionReceipt({ hash: last })
  return { deployed: true, eip3009: true }
}
