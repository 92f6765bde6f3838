// `npm run demo`: the sandbox (anvil + the service) and the demo merchant, in one process.
import { resolve } from 'node:path'
import { buildSpa } from './server/buildSpa.js'
import { appRoot, checkoutCdnDir, startDemo } from './startDemo.js'

const env = process.env
const num = (value: string | undefined, fallback: number) =>
  value === undefined || value === '' ? fallback : Number(value)
/** A positive number of seconds from the environment, or undefined (the sandbox's default). */
const seconds = (name: string): number | undefined => {
  const value = env[name]
  if (value === undefined || value === '') return undefined
  const n = Number(value)
  if (!Number.isFinite(n) || n <= 0) {
    console.error(`${name} must be a positive number of seconds, not "${value}".`)
    process.exit(1)
  }
  return n
}
const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
const repoRoot = resolve(appRoot, '..', '..')
// Checked before anything starts, so a typo fails fast.
const fundingWindowSeconds = seconds('PAYSESSION_FUNDING_WINDOW_SECONDS')
const tokenTtlSeconds = seconds('PAYSESSION_TOKEN_TTL_SECONDS')
const forwardTo = env.PAYSESSION_WEBHOOK_URL || undefined
if (forwardTo && !/^https?:\/\//.test(forwardTo)) {
  console.error(`PAYSESSION_WEBHOOK_URL must be an http(s) URL, not "${forwardTo}".`)
  process.exit(1)
}

const spa = await buildSpa({
  appRoot,
  checkoutDist: resolve(checkoutCdnDir(), '..', '..'), // dist/cdn/<version> → dist
  log: (m) => console.log(m),
})

const port = num(env.PAYSESSION_DEMO_PORT, 3000)
const demo = await startDemo({
  port,
  sandbox: {
    port: num(env.PAYSESSION_PORT, 4010),
    chainPort: num(env.PAYSESSION_CHAIN_PORT, 8545),
    dataDir: resolve(repoRoot, env.PAYSESSION_DATA_DIR || '.paysession'),
    // Unset: the data folder's own key, generated at its first start (printed below).
    apiKey: env.PAYSESSION_API_KEY || undefined,
    allowedOrigins: list(env.PAYSESSION_ALLOWED_ORIGINS),
    allowedHosts: list(env.PAYSESSION_ALLOWED_HOSTS),
    webhookSecret: env.PAYSESSION_WEBHOOK_SECRET || undefined,
    fundingWindowSeconds,
    tokenTtlSeconds,
    // `strict`: a service that does only what the spec promises; the shop works with either.
    profile: (env.PAYSESSION_PROFILE || undefined) as 'default' | 'strict' | undefined,
    // The sandbox posts to the demo's own /webhooks; PAYSESSION_WEBHOOK_URL gets them forwarded.
    quiet: true,
  },
  forwardWebhooksTo: forwardTo,
  hosts: list(env.PAYSESSION_DEMO_HOSTS),
}).catch((error: unknown) => {
  // A taken port is a PortInUseError: its sentence names the port and the variable to set.
  const text = error instanceof Error ? error.message : String(error)
  console.error(`The demo could not start: ${text}`)
  process.exit(1)
})

const shown = demo.url.replace('127.0.0.1', 'localhost')
const sb = demo.sandbox
const lines = [
  '',
  '  Harbor & Pine, the paysession demo merchant, is running.',
  '',
  `  Open the shop     ${shown}`,
  `  Merchant console  ${shown}/console`,
  spa === 'no-checkout-build' || spa === 'failed'
    ? '  SPA checkout      not built (it needs the @paysession/checkout build: npm run setup)'
    : `  SPA checkout      ${shown}/spa/<session id> (pick "SPA" in the shop)`,
  '',
  `  Sandbox API       ${sb.apiUrl}   key ${sb.apiKey}${sb.profile === 'strict' ? '   (strict profile)' : ''}`,
  `  Chain RPC         ${sb.rpcUrl}   chain id ${sb.chainId}`,
  `  Webhooks          ${demo.url}/webhooks, verified with the sandbox's secret`,
  ...(forwardTo
    ? [`  Forwarded to      ${forwardTo} (PAYSESSION_WEBHOOK_URL), signature included`]
    : []),
  `  Data folder       ${sb.dataDir ?? '(memory)'}`,
  '',
  '  The built-in "Sandbox Wallet" pays as a funded test customer, in any browser.',
  '  Ctrl-C stops everything; the next run resumes with the same sessions and balances.',
  '',
]
console.log(lines.join('\n'))

let stopping = false
async function stop() {
  if (stopping) return
  stopping = true
  console.log('Stopping the demo, the sandbox and anvil…')
  await demo.stop().catch((error: unknown) => console.error(error))
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
