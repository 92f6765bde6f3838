import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { listenOn, type Sandbox, type SandboxOptions, startSandbox } from '@paysession/sandbox'
import { createPaySessionClient } from '@paysession/server'
import { createFileRelayStore } from '@paysession/server/node'
import { createRelayHandler } from '@paysession/server/relay'
import { http } from 'viem'
import { createBalanceReader } from './server/balances.js'
import { buildWallet, walletFile } from './server/buildWallet.js'
import { demoContractPayers } from './server/contractPayers.js'
import { createDemoServer } from './server/createDemoServer.js'
import { orderFile } from './server/orderFile.js'
import { createOrderStore } from './server/orders.js'
import { sandboxTokenRenewal } from './server/sessions.js'
import { createWebhookLog, type WebhookLog } from './server/webhookLog.js'
import { webhookLogFile } from './server/webhookLogFile.js'

export const appRoot = fileURLToPath(new URL('..', import.meta.url))

/** packages/checkout/dist/cdn/<version>, found through the workspace dependency. */
export function checkoutCdnDir(): string {
  const require = createRequire(import.meta.url)
  const pkg = require.resolve('@paysession/checkout/package.json')
  return join(dirname(pkg), 'dist', 'cdn', require(pkg).version)
}

export type DemoOptions = {
  /** The demo's port on 127.0.0.1 (0: any free port). Default 3000. */
  port?: number
  /** Passed to the in-process sandbox; its webhook URL is set to this server's /webhooks. */
  sandbox?: SandboxOptions
  /** Also forward every verified webhook here (PAYSESSION_WEBHOOK_URL), signature included. */
  forwardWebhooksTo?: string | undefined
  /** Host names to answer to besides 127.0.0.1, localhost and [::1] (PAYSESSION_DEMO_HOSTS). */
  hosts?: string[]
}

export type Demo = {
  url: string
  sandbox: Sandbox
  webhooks: WebhookLog
  stop(): Promise<void>
}

/** Starts the sandbox (anvil + the service) and the demo merchant's server in this process. */
export async function startDemo(options: DemoOptions = {}): Promise<Demo> {
  await buildWallet(appRoot)
  const sandbox = await startSandbox(options.sandbox)
  // The relay's store is always on disk, as a merchant's must be: in the data folder, or for a
  // sandbox that keeps nothing (tests) in a temporary folder removed at stop.
  const relayDir = options.sandbox?.dataDir ?? mkdtempSync(join(tmpdir(), 'paysession-demo-relay-'))
  const removeRelayDir = () => {
    if (!options.sandbox?.dataDir) rmSync(relayDir, { recursive: true, force: true })
  }
  try {
    // Every API-key call goes through @paysession/server, as a real merchant's would.
    const client = createPaySessionClient({ apiBase: sandbox.apiUrl, apiKey: sandbox.apiKey })
    const dataDir = options.sandbox?.dataDir
    const orders = createOrderStore(
      dataDir ? orderFile(join(dataDir, 'demo-orders.json')) : undefined,
    )
    const webhooks = createWebhookLog({
      secret: sandbox.webhookSecret,
      client,
      sessionTokenOf: (id) => orders.get(id)?.sessionToken,
      store: dataDir ? webhookLogFile(join(dataDir, 'demo-webhooks.jsonl')) : undefined,
      forwardTo: options.forwardWebhooksTo,
      clock: sandbox.clock,
    })
    const tokens = Object.values(sandbox.tokens)
    let webhookUrl = ''
    const server = createDemoServer({
      client,
      orders,
      webhooks,
      balances: createBalanceReader(http(sandbox.rpcUrl), tokens),
      apiBase: sandbox.apiUrl,
      renewSessionToken: sandboxTokenRenewal({
        apiBase: sandbox.apiUrl,
        apiKey: sandbox.apiKey,
        fetch,
      }),
      // The merchant's relayer for gasless payments: the sandbox's funded relayer account.
      relay: createRelayHandler({
        client,
        // Read with the order's token (the spec's credential), and kept across restarts.
        sessionTokenOf: (id) => orders.get(id)?.sessionToken,
        store: createFileRelayStore(join(relayDir, 'demo-relay.json')),
        relayer: sandbox.relayer.privateKey,
        // Contract payers run their own code at the relayer's expense: only the sandbox's
        // test smart account and Safe 1.4.1s running Safe's own code (contractPayers.ts).
        contractPayers: demoContractPayers(sandbox.rpcUrl, [sandbox.accounts.smartAccount.address]),
        networks: {
          [sandbox.network]: {
            chainId: sandbox.chainId,
            rpcUrl: sandbox.rpcUrl,
            tokens: { USDC: sandbox.tokens.USDC.address, EURC: sandbox.tokens.EURC.address },
          },
        },
      }),
      treasury: sandbox.treasury,
      wallet: {
        rpcUrl: sandbox.rpcUrl,
        chainId: sandbox.chainId,
        accounts: sandbox.customers.map((c) => c.address),
        tokens,
        smartAccount: sandbox.accounts.smartAccount,
        safe: sandbox.accounts.safe,
      },
      webhookUrl: () => webhookUrl,
      webhookBacklog: () => sandbox.webhookBacklog(),
      forwardUrl: options.forwardWebhooksTo,
      ...(options.hosts ? { hosts: options.hosts } : {}),
      paths: {
        assets: join(appRoot, 'public'),
        wallet: dirname(walletFile(appRoot)),
        cdn: checkoutCdnDir(),
        spa: join(appRoot, 'dist', 'spa'),
      },
    })
    const port = options.port ?? 3000
    await listenOn(server, port, '127.0.0.1', 'the demo shop', 'PAYSESSION_DEMO_PORT')
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    webhookUrl = `${url}/webhooks`
    sandbox.setWebhookUrl(webhookUrl)
    return {
      url,
      sandbox,
      webhooks,
      async stop() {
        sandbox.setWebhookUrl(undefined)
        server.closeAllConnections()
        await new Promise<void>((resolve) => server.close(() => resolve()))
        await sandbox.stop()
        removeRelayDir()
      },
    }
  } catch (error) {
    await sandbox.stop()
    removeRelayDir()
    throw error
  }
}
