import { startWalletStacks } from '@paysession/wallet-stacks'
import globalSetup from './global-setup.js'

/**
 * The demo (sandbox and anvil) as for every run, then the wallet stacks on its chain: their
 * bundler and paymaster URLs reach the test workers through the environment. The teardown stops
 * the stacks, then the demo.
 */
export default async function walletsSetup() {
  const stopDemo = await globalSetup()
  try {
    const stacks = await startWalletStacks({ rpcUrl: process.env.E2E_RPC_URL! })
    process.env.E2E_BUNDLER_URL = stacks.bundlerUrl
    process.env.E2E_PAYMASTER_URL = stacks.paymasterUrl
    console.log(`wallet stacks started: ${JSON.stringify(stacks.timings)} ms`)
    return async () => {
      await stacks.stop()
      await stopDemo()
    }
  } catch (error) {
    await stopDemo()
    throw error
  }
}
