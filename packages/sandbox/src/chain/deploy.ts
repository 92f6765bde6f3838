import type { Address } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { Artifacts } from './artifacts.js'
import type { ChainClients } from './clients.js'
import { implementationSteps, initializeSteps, PROXY_ADMIN_KEY, proxyStep } from './fiatToken.js'
import { type AfterSetupStep, mintStep, runSetup, type SetupStep } from './setup.js'
import { ACCOUNTS_DEPLOYER_KEY, DEPLOYER_KEY, LOCAL_TOKENS } from './tokens.js'

export type { Artifacts }

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
  const usdc = LOCAL_TOKENS[0]!
  // A chain saved by an older sandbox has our own test tokens there: its setup is left as it is.
  if (await hasCode(clients, usdc.address)) {
    const fiat = await clients.publicClient
      .call({ to: usdc.address, data: '0x35d99f35' }) // masterMinter()
      .then(
        ({ data }) => !!data && data !== '0x',
        () => false,
      )
    if (!fiat) {
      options.log?.(
        "the saved chain state has the sandbox's older test tokens, not Circle's FiatToken v2.2: start with a fresh data folder to pay with it",
      )
      return { eip3009: await hasEip3009(clients) }
    }
  }
  const deployer = privateKeyToAccount(DEPLOYER_KEY).address
  await runSetup(clients, PROXY_ADMIN_KEY, implementationSteps(artifacts), options)
  const fiatTokens = LOCAL_TOKENS.filter((t) => t.contract === 'FiatTokenV2_2')
  const steps: SetupStep[] = [
    ...LOCAL_TOKENS.map(
      (token): SetupStep =>
        token.contract === 'FiatTokenV2_2'
          ? proxyStep(artifacts, token)
          : {
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
            },
    ),
    ...fiatTokens.flatMap((token) =>
      initializeSteps(artifacts, token, deployer, [
        deployer,
        privateKeyToAccount(ACCOUNTS_DEPLOYER_KEY).address,
      ]),
    ),
    ...LOCAL_TOKENS.flatMap((token) => customers.map((to) => mintStep(token, to, mint))),
  ]
  await runSetup(clients, DEPLOYER_KEY, steps, options)
  return { eip3009: await hasEip3009(clients) }
}

async function hasCode(clients: ChainClients, address: Address) {
  const code = await clients.publicClient.getCode({ address })
  return !!code && code !== '0x'
}

/** A chain state saved before the tokens had EIP-3009 keeps their old code. */
function hasEip3009(clients: ChainClients) {
  return clients.publicClient
    .call({ to: LOCAL_TOKENS[0]!.address, data: '0x54fd4d50' }) // version()
    .then(
      ({ data }) => !!data && data !== '0x',
      () => false,
    )
}
