import type { Address, Hex } from 'viem'
import type { ChainClients } from './clients.js'
import { type AfterSetupStep, mintStep, runSetup, type SetupStep } from './setup.js'
import { DEPLOYER_KEY, LOCAL_TOKENS } from './tokens.js'

/** The compiled contracts, `artifacts/contracts.json` (read from disk in Node, bundled in a page). */
export type Artifacts = Record<string, { abi: unknown[]; bytecode: Hex }>

/**
 * Deploys the test tokens at their fixed addresses and funds each test customer once with
 * `mintPerCustomer` of each: on a new chain all of it, on a chain whose first start was cut
 * short the steps it lacks (see runSetup), on a set-up chain nothing.
 */
export async function deployTokens(
  artifacts: Artifacts,
  clients: ChainClients,
  customers: Address[],
  options: {
    mintPerCustomer?: bigint
    afterStep?: AfterSetupStep | undefined
    log?: ((message: string) => void) | undefined
  } = {},
): Promise<{ eip3009: boolean }> {
  const mint = options.mintPerCustomer ?? 10_000n
  const steps: SetupStep[] = [
    ...LOCAL_TOKENS.map(
      (token): SetupStep => ({
        label: `deploy ${token.symbol}`,
        deploys: token.address,
        send: (wallet, nonce) => {
          const artifact = artifacts[token.contract]!
          return wallet.deployContract({
            abi: artifact.abi,
            bytecode: artifact.bytecode,
            args: [token.name, token.symbol, token.decimals],
            nonce,
          })
        },
      }),
    ),
    ...LOCAL_TOKENS.flatMap((token) => customers.map((to) => mintStep(token, to, mint))),
  ]
  await runSetup(clients, DEPLOYER_KEY, steps, options)
  // A chain state saved before the tokens had EIP-3009 keeps their old code.
  const eip3009 = await clients.publicClient
    .call({ to: LOCAL_TOKENS[0]!.address, data: '0x54fd4d50' }) // version()
    .then(
      ({ data }) => !!data && data !== '0x',
      () => false,
    )
  return { eip3009 }
}
