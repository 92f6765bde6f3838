import { createServer } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createMemoryStorage, createPaySessionConfig } from '../src/exports/index.js'
import { createSession, type Sandbox, startSandbox, waitForStep, withCheckout } from './support.js'

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0, chainPort: 0, quiet: true })
})
afterAll(async () => {
  await sb?.stop()
})

/** A local port nothing listens on: connections are refused at once. */
async function closedPort() {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

test('no reachable RPC: the error names the network and the URL, and says how to set rpcUrls', async () => {
  const rpc = `http://127.0.0.1:${await closedPort()}`
  const session = await createSession(sb, '1.00')
  const config = createPaySessionConfig({
    apiBase: sb.apiUrl,
    rpcUrls: { 31337: rpc },
    storage: createMemoryStorage(),
  })
  await withCheckout(config, session, async (checkout) => {
    const failed = await waitForStep(checkout, 'failed')
    const error = failed.error!
    expect(error.code).toBe('CHAIN_UNAVAILABLE')
    expect(error.shortMessage).toBe('Local test chain could not be reached. Please try again.')
    expect(error.details).toContain(`The RPC ${rpc} for LOCAL (chain id 31337) did not answer`)
    expect(error.message).toContain(
      "Set one: rpcUrls: { 31337: 'https://…' } in createPaySessionConfig or on <paysession-checkout>",
    )
  })
})
