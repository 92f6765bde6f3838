import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { type Address, type Hex, isAddress } from 'viem'
import { toUnits } from './amounts.js'
import { transferWithAuthorization } from './chain/authorization.js'
import { CUSTOMER_KEYS, transferToken } from './chain/pay.js'
import { setBlacklisted, setTokenPaused } from './chain/tokenAdmin.js'
import { tokenBySymbol } from './chain/tokens.js'
import { openDb } from './db.js'
import { isProfile, startSandbox } from './index.js'
import { webhookBacklog } from './service/webhooks.js'

const USAGE = `paysession-sandbox: a local Payment Session Service on a local anvil chain

  paysession-sandbox [start] [options]     start anvil + the API (Ctrl-C stops both)
  paysession-sandbox pay <sessionId> [--token SYMBOL] [--amount A] [--customer N] [--gasless]
                                           pay a session from test customer N (default 0);
                                           --gasless: the customer signs an EIP-3009 authorization
                                           (USDC, EURC) and the sandbox's relayer submits it
  paysession-sandbox token pause|unpause <SYMBOL>
                                           pause Circle's USDC or EURC (transfers revert)
  paysession-sandbox token blacklist|unblacklist <address> [--token SYMBOL]
                                           blacklist an address on USDC (default) or EURC:
                                           it can neither send nor receive the token
  paysession-sandbox api-key               print the data folder's merchant API key
  paysession-sandbox webhooks [list]       the backlog (updates waiting, per session, in the
                                           order they will be sent) and the given-up ones
  paysession-sandbox webhooks retry        queue the given-up ones again, in order; one whose
                                           session had a later update delivered is superseded
                                           (a running sandbox sends them soon; else the next start)

Options (each also as an environment variable):
  --port N              PAYSESSION_PORT            API port (default 4010)
  --chain-port N        PAYSESSION_CHAIN_PORT      chain JSON-RPC port (default 8545; anvil
                                                   itself answers only on a unix socket behind it)
  --api-key K           PAYSESSION_API_KEY         merchant API key (default: the data folder's
                                                   own, generated at its first start)
  --data-dir D          PAYSESSION_DATA_DIR        state folder (default ./.paysession)
  --allowed-origins O   PAYSESSION_ALLOWED_ORIGINS pages (comma-separated origins) that may call the
                                                   API besides loopback ones, e.g. https://shop.test
  --allowed-hosts H     PAYSESSION_ALLOWED_HOSTS   host names (comma-separated) the API answers to
                                                   besides localhost, 127.0.0.1 and [::1]
  --webhook-url U       PAYSESSION_WEBHOOK_URL     where status updates are POSTed
  --webhook-secret S    PAYSESSION_WEBHOOK_SECRET  HMAC secret for Paysession-Signature
  --funding-window S    PAYSESSION_FUNDING_WINDOW_SECONDS  (default 86400)
  --token-ttl S         PAYSESSION_TOKEN_TTL_SECONDS       (default 3600)
  --profile P           PAYSESSION_PROFILE         default, or strict: answer as lean as the spec allows
  PAYSESSION_WEBHOOK_RETRY_HOURS (default 24): how long a failing delivery is retried
  PAYSESSION_WEBHOOK_BASE_DELAY_MS (default 500), PAYSESSION_WEBHOOK_MAX_DELAY_MS (default
  300000): retry delays double from the first to the cap
  PAYSESSION_WEBHOOK_MAX_ATTEMPTS (default none), PAYSESSION_POLL_INTERVAL_MS (default 200)
`

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    port: { type: 'string' },
    'chain-port': { type: 'string' },
    'api-key': { type: 'string' },
    'data-dir': { type: 'string' },
    'allowed-origins': { type: 'string' },
    'allowed-hosts': { type: 'string' },
    'webhook-url': { type: 'string' },
    'webhook-secret': { type: 'string' },
    'funding-window': { type: 'string' },
    'token-ttl': { type: 'string' },
    profile: { type: 'string' },
    token: { type: 'string' },
    amount: { type: 'string' },
    customer: { type: 'string' },
    gasless: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
})

const env = process.env
const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v))
const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
const port = num(values.port ?? env.PAYSESSION_PORT) ?? 4010
const dataDir = values['data-dir'] ?? env.PAYSESSION_DATA_DIR ?? '.paysession'
const givenApiKey = values['api-key'] ?? (env.PAYSESSION_API_KEY || undefined)
const command = positionals[0] ?? 'start'

/** The data folder's database, for the commands that need no running sandbox. */
function openDataDir() {
  const file = join(dataDir, 'sandbox.db')
  if (!existsSync(file)) {
    console.error(
      `no sandbox data in ${dataDir}: start the sandbox once, or set --data-dir or PAYSESSION_DATA_DIR`,
    )
    process.exit(1)
  }
  return openDb(file)
}

/** The API key given, else the one the data folder keeps. */
function apiKeyOf(): string {
  if (givenApiKey) return givenApiKey
  const db = openDataDir()
  const key = db.meta.get('apiKey')
  db.close()
  if (!key) {
    console.error(`no API key in ${dataDir} yet: start the sandbox once`)
    process.exit(1)
  }
  return key
}

if (values.help) {
  console.log(USAGE)
} else if (command === 'start') {
  const profile = values.profile ?? (env.PAYSESSION_PROFILE || undefined)
  if (profile !== undefined && !isProfile(profile)) {
    console.error(`unknown profile ${profile}: use default or strict`)
    process.exit(2)
  }
  const sb = await startSandbox({
    profile,
    port,
    chainPort: num(values['chain-port'] ?? env.PAYSESSION_CHAIN_PORT) ?? 8545,
    apiKey: givenApiKey,
    dataDir,
    allowedOrigins: list(values['allowed-origins'] ?? env.PAYSESSION_ALLOWED_ORIGINS),
    allowedHosts: list(values['allowed-hosts'] ?? env.PAYSESSION_ALLOWED_HOSTS),
    webhookUrl: values['webhook-url'] ?? env.PAYSESSION_WEBHOOK_URL,
    webhookSecret: values['webhook-secret'] ?? env.PAYSESSION_WEBHOOK_SECRET,
    fundingWindowSeconds: num(values['funding-window'] ?? env.PAYSESSION_FUNDING_WINDOW_SECONDS),
    tokenTtlSeconds: num(values['token-ttl'] ?? env.PAYSESSION_TOKEN_TTL_SECONDS),
    webhookMaxAttempts: num(env.PAYSESSION_WEBHOOK_MAX_ATTEMPTS),
    webhookRetryDelay: num(env.PAYSESSION_WEBHOOK_BASE_DELAY_MS),
    webhookMaxRetryDelay: num(env.PAYSESSION_WEBHOOK_MAX_DELAY_MS),
    webhookRetryHours: num(env.PAYSESSION_WEBHOOK_RETRY_HOURS),
    interval: num(env.PAYSESSION_POLL_INTERVAL_MS),
  }).catch((e: unknown) => {
    const text = e instanceof Error ? e.message : String(e)
    // A taken port is a PortInUseError: its sentence names the port and the setting to change.
    console.error(`The sandbox could not start: ${text}`)
    process.exit(1)
  })
  const lines = [
    sb.profile === 'strict'
      ? `API base URL      ${sb.apiUrl}  (strict profile: each operation only under the spec's path form)`
      : `API base URL      ${sb.apiUrl}  (also ${sb.apiUrl}/api/v1)`,
    `Merchant API key  ${sb.apiKey}  (kept in the data folder: paysession-sandbox api-key)`,
    `Chain RPC URL     ${sb.rpcUrl}`,
    `Chain id          ${sb.chainId} (network ${sb.network})`,
    ...Object.values(sb.tokens).map(
      (t) => `Token ${t.symbol.padEnd(11)} ${t.address} (${t.decimals} decimals)`,
    ),
    `Treasury          ${sb.treasury}`,
    ...sb.customers.map((c, i) => `Test customer ${i}   ${c.address}  key ${c.privateKey}`),
    `Webhook URL       ${env.PAYSESSION_WEBHOOK_URL ?? values['webhook-url'] ?? '(none: set PAYSESSION_WEBHOOK_URL)'}`,
    `Webhook secret    ${sb.webhookSecret}`,
    `Data folder       ${sb.dataDir}`,
  ]
  console.log(
    `paysession sandbox is running\n${lines.join('\n')}\nCtrl-C stops it; state is kept in the data folder.`,
  )
  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    await sb.stop()
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
} else if (command === 'api-key') {
  console.log(apiKeyOf())
} else if (command === 'pay') {
  const sessionId = positionals[1]
  if (!sessionId) {
    console.error(USAGE)
    process.exit(2)
  }
  const apiKey = apiKeyOf()
  const base = `http://127.0.0.1:${port}`
  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    }).catch(() => {
      throw new Error(
        `no sandbox answers at ${base}: start it with \`npm run sandbox\` (or \`pnpm sandbox\`)`,
      )
    })
    const json = await res.json()
    if (!res.ok) throw new Error(`${path}: ${json?.error?.message ?? res.status}`)
    return json
  }
  try {
    const info = await get('/sandbox/info')
    // The strict profile lets only the session token read a session; the list (an extension) takes the key.
    const session =
      info.profile === 'strict'
        ? (await get('/payment-sessions?limit=500')).data.find(
            (s: { paymentSessionId: string }) => s.paymentSessionId === sessionId,
          )
        : await get(`/payment-sessions/${encodeURIComponent(sessionId)}`)
    if (!session) throw new Error(`no session ${sessionId}`)
    const token = tokenBySymbol(values.token ?? session.tokenSymbol)
    if (!token) throw new Error(`unknown token ${values.token}`)
    const amount = values.amount ?? session.amount
    const value = toUnits(amount, token.decimals)
    if (value === null || value <= 0n) throw new Error(`invalid amount ${amount}`)
    const key = CUSTOMER_KEYS[Number(values.customer ?? 0)]
    if (!key) throw new Error(`no test customer ${values.customer}`)
    const to = session.oneTimeWalletAddress as Address
    if (values.gasless && !token.eip3009)
      throw new Error(`${token.symbol} has no EIP-3009 authorizations: pay without --gasless`)
    const hash = values.gasless
      ? await transferWithAuthorization({
          rpcUrl: info.rpcUrl,
          customerKey: key,
          token: token.address,
          to,
          value,
        })
      : await transferToken({
          rpcUrl: info.rpcUrl,
          privateKey: key as Hex,
          token: token.address,
          to,
          value,
        })
    const how = values.gasless ? ` by an authorization the relayer ${info.relayer} submitted` : ''
    console.log(`sent ${amount} ${token.symbol} to ${to}${how}\ntransaction ${hash}`)
  } catch (e) {
    console.error(`pay failed: ${e instanceof Error ? e.message : e}`)
    process.exit(1)
  }
} else if (command === 'token') {
  const [action, target] = positionals.slice(1)
  const pausing = action === 'pause' || action === 'unpause'
  const listing = action === 'blacklist' || action === 'unblacklist'
  if (!target || !(pausing || listing)) {
    console.error(USAGE)
    process.exit(2)
  }
  try {
    const res = await fetch(`http://127.0.0.1:${port}/sandbox/info`, {
      headers: { authorization: `Bearer ${apiKeyOf()}` },
    }).catch(() => {
      throw new Error(`no sandbox answers on port ${port}: start it first`)
    })
    const info = await res.json()
    if (!res.ok) throw new Error(info?.error?.message ?? String(res.status))
    const symbol = (pausing ? target : (values.token ?? 'USDC')).toUpperCase()
    const token = tokenBySymbol(symbol)
    if (!token) throw new Error(`unknown token ${symbol}`)
    if (pausing) {
      await setTokenPaused(info.rpcUrl, token, action === 'pause')
      console.log(`${symbol} ${action === 'pause' ? 'is paused' : 'is no longer paused'}`)
    } else {
      if (!isAddress(target)) throw new Error(`${target} is not an address`)
      await setBlacklisted(info.rpcUrl, token, target, action === 'blacklist')
      console.log(
        `${target} ${action === 'blacklist' ? 'is blacklisted' : 'is no longer blacklisted'} on ${symbol}`,
      )
    }
  } catch (e) {
    console.error(`token ${action} failed: ${e instanceof Error ? e.message : e}`)
    process.exit(1)
  }
} else if (command === 'webhooks') {
  // Works on the data folder directly, so it needs no running sandbox (SQLite allows both at once).
  const db = openDataDir()
  const sub = positionals[1] ?? 'list'
  if (sub === 'list') {
    const backlog = webhookBacklog(db)
    console.log(
      backlog.waiting
        ? `backlog: ${backlog.waiting} updates of ${backlog.sessions} sessions waiting, oldest from ${backlog.oldestAt}, next attempt ${backlog.nextAttemptAt}${backlog.lastError ? `, last error: ${backlog.lastError}` : ''}`
        : 'backlog: none, every update was delivered',
    )
    for (const s of backlog.bySession)
      console.log(
        `  session ${s.paymentSessionId}  ${s.statuses.join(' → ')}  (${s.attempts} attempts of the first)`,
      )
    const failed = db.webhooks.failed()
    if (failed.length) console.log(`given up (webhooks retry queues them again):`)
    for (const w of failed)
      console.log(
        `  ${w.id}  session ${w.session_id}  ${JSON.parse(w.body).params?.[0]?.status ?? ''}  ${w.attempts} attempts  ${w.last_error ?? ''}`,
      )
  } else if (sub === 'retry') {
    const { requeued, superseded } = db.webhooks.retryFailed()
    console.log(
      requeued || superseded
        ? `${requeued} given-up webhook deliveries queued again, oldest first; ${superseded} superseded by a later update of their session, not sent`
        : 'no given-up webhook deliveries',
    )
  } else {
    console.error(USAGE)
    process.exitCode = 2
  }
  db.close()
} else {
  console.error(USAGE)
  process.exit(2)
}
