import { fileURLToPath } from 'node:url'
import { printedApiKey, spawnUntilReady, tempDataDir } from './sandbox-process.ts'

const MAIN = fileURLToPath(new URL('../../apps/demo/src/main.ts', import.meta.url))

/** Runs `apps/demo` (demo server + sandbox + anvil) in its own process on the given ports. */
export async function startDemoProcess(ports: { demo: number; api: number; chain: number }) {
  const data = tempDataDir()
  const { output, stop } = await spawnUntilReady(['--import', 'tsx', MAIN], 'is running', {
    PAYSESSION_DEMO_PORT: String(ports.demo),
    PAYSESSION_PORT: String(ports.api),
    PAYSESSION_CHAIN_PORT: String(ports.chain),
    PAYSESSION_DATA_DIR: data.dir,
  })
  return {
    url: `http://127.0.0.1:${ports.demo}`,
    apiUrl: `http://127.0.0.1:${ports.api}`,
    rpcUrl: `http://127.0.0.1:${ports.chain}`,
    apiKey: printedApiKey(output),
    stop: async () => {
      await stop()
      data.remove()
    },
  }
}

/** A new order of the demo's mug, paid through the script-tag page: its payment session id. */
export async function newCheckout(demoUrl: string): Promise<string> {
  const res = await fetch(`${demoUrl}/checkout`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ product: 'mug', integration: 'script', cart: crypto.randomUUID() }),
  })
  const location = res.headers.get('location')
  if (!location) throw new Error(`the shop did not redirect (${res.status})`)
  return decodeURIComponent(location.split('/').pop()!)
}
