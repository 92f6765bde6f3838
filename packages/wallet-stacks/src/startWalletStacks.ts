import { type Chain, createTestClient, defineChain, http, parseEther } from 'viem'
import { privateKeyToAddress } from 'viem/accounts'
import { BUNDLER_EXECUTOR_KEY, BUNDLER_UTILITY_KEY, startBundler } from './bundler.js'
import { deployContracts } from './contracts.js'
import { startPaymaster } from './paymaster.js'

/** The local chain as viem describes it. */
export const localChain = (rpcUrl: string, id = 31337): Chain =>
  defineChain({
    id,
    name: 'Local',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })

/** Where a running set of stacks answers (what a wallet in another process needs). */
export type StackEndpoints = Pick<WalletStacks, 'rpcUrl' | 'chain' | 'bundlerUrl'>

export type WalletStacks = {
  rpcUrl: string
  chain: Chain
  /** Alto's JSON-RPC (ERC-4337 bundler methods). */
  bundlerUrl: string
  /** The ERC-7677 paymaster service's JSON-RPC. */
  paymasterUrl: string
  /** Every deployed contract by name ('EntryPoint v0.8', 'Safe 1.4.1', ...). */
  contracts: Record<string, `0x${string}`>
  /** What each part took to start, in ms. */
  timings: Record<string, number>
  stop(): Promise<void>
}

/**
 * Puts the real wallet stacks on a running anvil (the sandbox's): Safe 1.4.1 and the ERC-4337
 * EntryPoint v0.8 with its reference accounts at their usual addresses, Alto bundling user
 * operations to it and Pimlico's ERC-7677 paymaster service. `stop()` ends the bundler and the
 * paymaster service; the chain is its owner's.
 * @example const stacks = await startWalletStacks({ rpcUrl: sandbox.rpcUrl })
 */
export async function startWalletStacks(options: {
  rpcUrl: string
  chainId?: number
  log?: (line: string) => void
}): Promise<WalletStacks> {
  const chain = localChain(options.rpcUrl, options.chainId)
  const timings: Record<string, number> = {}
  const timed = async <T>(name: string, run: () => Promise<T>) => {
    const start = performance.now()
    const result = await run()
    timings[name] = Math.round(performance.now() - start)
    return result
  }
  const contracts = await timed('contracts', () => deployContracts(options.rpcUrl, chain))
  const testClient = createTestClient({ chain, mode: 'anvil', transport: http(options.rpcUrl) })
  for (const key of [BUNDLER_EXECUTOR_KEY, BUNDLER_UTILITY_KEY])
    await testClient.setBalance({ address: privateKeyToAddress(key), value: parseEther('1000') })
  const bundler = await timed('bundler', () =>
    startBundler({ rpcUrl: options.rpcUrl, log: options.log }),
  )
  const paymaster = await timed('paymaster', () =>
    startPaymaster({ rpcUrl: options.rpcUrl, bundlerUrl: bundler.url }).catch(async (e) => {
      await bundler.stop()
      throw e
    }),
  )
  return {
    rpcUrl: options.rpcUrl,
    chain,
    bundlerUrl: bundler.url,
    paymasterUrl: paymaster.url,
    contracts,
    timings,
    async stop() {
      await paymaster.stop()
      await bundler.stop()
    },
  }
}
