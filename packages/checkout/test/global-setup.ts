import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { startSandbox } from '../../sandbox/dist/index.js'
import { startRelay } from './walletconnect/relay.js'

const root = fileURLToPath(new URL('..', import.meta.url))
// Test pages load the script-tag build as /dist/cdn/current/…: this version's folder.
const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'))
const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
}

/**
 * Starts the sandbox (service + anvil) and a static server for the built element with a strict
 * Content-Security-Policy. The server also exposes the sandbox's test hooks (pay, clock) to the
 * test workers, which only share environment variables with this process.
 */
export default async function globalSetup() {
  // The React test page (test/react), bundled like a consumer's app would be: it imports
  // `@paysession/checkout/react`, which resolves through the package's exports to dist/.
  await build({
    configFile: false,
    root: join(root, 'test/react'),
    base: '/test/react/dist/',
    logLevel: 'warn',
    build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
  })
  const sandbox = await startSandbox({
    port: 0,
    chainPort: 0,
    quiet: true,
    // Shorter than the session token's hour, so an expired (CANCELED) session is still readable.
    fundingWindowSeconds: 1800,
    // Amounts at the tokens' full precision (6 decimals), to show they are never rounded.
    amountDecimals: 6,
  })
  // A second service that answers only what the spec promises (profiles.spec.ts).
  const strict = await startSandbox({ port: 0, chainPort: 0, quiet: true, profile: 'strict' })
  // The WalletConnect relay the page and the test's wallet meet on (walletconnect.spec.ts).
  const relay = await startRelay()
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    try {
      if (url.pathname === '/__sandbox/pay') {
        const target = url.searchParams.get('profile') === 'strict' ? strict : sandbox
        const hash = await target.pay(url.searchParams.get('session')!, {
          ...(url.searchParams.get('amount') ? { amount: url.searchParams.get('amount')! } : {}),
        })
        return void res.end(JSON.stringify({ hash }))
      }
      if (url.pathname === '/__sandbox/token') {
        // What a merchant's server does for its page: the sandbox's renewal extension (API key).
        const id = encodeURIComponent(url.searchParams.get('session')!)
        const renewed = await fetch(
          `${sandbox.apiUrl}/api/v1/payment-sessions/${id}/session-token`,
          {
            method: 'POST',
            headers: {
              authorization: `Bearer ${sandbox.apiKey}`,
              'content-type': 'application/json',
            },
            body: '{}',
          },
        )
        res.statusCode = renewed.status
        return void res.end(await renewed.text())
      }
      if (url.pathname === '/__sandbox/advance') {
        sandbox.clock.advance(Number(url.searchParams.get('seconds')))
        return void res.end('{}')
      }
      const file = normalize(
        join(root, url.pathname.replace('/dist/cdn/current/', `/dist/cdn/${version}/`)),
      )
      if (!file.startsWith(root)) throw new Error('outside')
      const body = await readFile(file)
      res.setHeader('content-type', types[extname(file)] ?? 'application/octet-stream')
      res.setHeader(
        'content-security-policy',
        [
          "default-src 'none'",
          "script-src 'self'",
          "style-src 'self'",
          "img-src 'self' data:",
          `connect-src 'self' ${sandbox.apiUrl} ${sandbox.rpcUrl} ${strict.apiUrl} ${strict.rpcUrl} ${relay.url}`,
          // WalletConnect's domain verification (docs/payment-paths.md, CSP for WalletConnect).
          'frame-src https://verify.walletconnect.org',
          "base-uri 'none'",
          "form-action 'none'",
        ].join('; '),
      )
      res.end(body)
    } catch (error) {
      res.statusCode = url.pathname.startsWith('/__sandbox') ? 500 : 404
      res.end(String(error))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  process.env.PAGE_URL = `http://127.0.0.1:${port}`
  process.env.SANDBOX_API_URL = sandbox.apiUrl
  process.env.SANDBOX_API_KEY = sandbox.apiKey
  process.env.SANDBOX_RPC_URL = sandbox.rpcUrl
  process.env.SANDBOX_CUSTOMER = sandbox.customers[0]!.address
  process.env.SANDBOX_CUSTOMERS = JSON.stringify(sandbox.customers)
  process.env.WALLETCONNECT_RELAY_URL = relay.url
  process.env.SANDBOX_ACCOUNTS = JSON.stringify(sandbox.accounts)
  process.env.STRICT_API_URL = strict.apiUrl
  process.env.STRICT_API_KEY = strict.apiKey
  process.env.STRICT_RPC_URL = strict.rpcUrl
  return async () => {
    server.close()
    await Promise.all([sandbox.stop(), strict.stop(), relay.close()])
  }
}
