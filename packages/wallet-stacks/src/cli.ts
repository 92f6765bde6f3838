import { startSandbox } from '@paysession/sandbox'
import { startWalletStacks } from './startWalletStacks.js'

// `wallet-stacks [--port N] [--chain-port N]`: the sandbox on those ports (default: free ones),
// then the stacks on its chain; Ctrl-C stops everything.
const arg = (name: string) => {
  const i = process.argv.indexOf(name)
  return i === -1 ? 0 : Number(process.argv[i + 1])
}
const started = performance.now()
const sandbox = await startSandbox({
  port: arg('--port'),
  chainPort: arg('--chain-port'),
  quiet: true,
})
const sandboxMs = Math.round(performance.now() - started)
const stacks = await startWalletStacks({ rpcUrl: sandbox.rpcUrl }).catch(async (error) => {
  await sandbox.stop()
  throw error
})
console.log(`sandbox API    ${sandbox.apiUrl}  (API key ${sandbox.apiKey})
chain (anvil)  ${sandbox.rpcUrl}
bundler (Alto) ${stacks.bundlerUrl}
paymaster      ${stacks.paymasterUrl}  (ERC-7677)
contracts      ${Object.entries(stacks.contracts)
  .map(([name, address]) => `${name} ${address}`)
  .join('\n               ')}
started in     ${Math.round(performance.now() - started)} ms (sandbox ${sandboxMs}, ${Object.entries(
  stacks.timings,
)
  .map(([k, v]) => `${k} ${v}`)
  .join(', ')})`)
const stop = async () => {
  await stacks.stop()
  await sandbox.stop()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
