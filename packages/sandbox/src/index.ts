import { randomBytes } from 'node:crypto'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { sleep } from '@paysession/protocol'
import { type Address, getAddress, type Hex, parseEther } from 'viem'
import { HDKey, hdKeyToAccount, privateKeyToAccount } from 'viem/accounts'
import { toUnits } from './amounts.js'
import { deployTestAccounts, type TestAccounts } from './chain/accounts.js'
import { type Anvil, newSocketPath, startAnvil } from './chain/anvil.js'
import { readArtifacts } from './chain/artifacts.js'
import { RELAYER_KEY, transferWithAuthorization } from './chain/authorization.js'
import { createChainClients } from './chain/clients.js'
import { deployTokens } from './chain/deploy.js'
import { customers as testCustomers, transferToken } from './chain/pay.js'
import { createStateFile, StateFileError } from './chain/state.js'
import { LOCAL_CHAIN_ID, LOCAL_NETWORK, LOCAL_TOKENS, tokenBySymbol } from './chain/tokens.js'
import { createClock, type SandboxClock } from './clock.js'
import { openDb } from './db.js'
import { type AccessOptions, createAccess } from './http/access.js'
import { type ChainServer, listenChain } from './http/chainServer.js'
import { isProfile, type Profile } from './http/profile.js'
import { listen } from './http/server.js'
import { type Context, newApiKey, serviceOptions as withDefaults } from './service/context.js'
import { createService } from './service/service.js'
import { TOKEN_DECIMALS } from './service/sessions.js'
import { logRequeued, type WebhookBacklog, webhookBacklog } from './service/webhooks.js'

export { fromUnits, toUnits } from './amounts.js'
export {
  BUNDLER,
  deployTestAccounts,
  safeAbi,
  smartAccountAbi,
  type TestAccounts,
} from './chain/accounts.js'
export {
  eip3009Abi,
  RELAYER_KEY,
  transferWithAuthorization,
  transferWithAuthorizationTypes,
} from './chain/authorization.js'
export {
  FIAT_TOKEN_IMPLEMENTATION,
  IMPLEMENTATION_SLOT,
  linkBytecode,
  PROXY_ADMIN,
  SIGNATURE_CHECKER,
} from './chain/fiatToken.js'
export { fiatTokenAdminAbi, setBlacklisted, setTokenPaused } from './chain/tokenAdmin.js'
export {
  CURRENCIES,
  erc20Abi,
  LOCAL_CHAIN_ID,
  LOCAL_NETWORK,
  LOCAL_TOKENS,
} from './chain/tokens.js'
export type { SandboxClock } from './clock.js'
export { isProfile, type Profile, profiles } from './http/profile.js'
export { startRewritingProxy } from './http/rewritingProxy.js'
export { isAddressInUse, listenOn, PortInUseError } from './portInUse.js'
export { signWebhook, type WebhookBacklog } from './service/webhooks.js'

export interface SandboxOptions extends AccessOptions {
  /** API port on 127.0.0.1 (0: any free port). Default 4010. */
  port?: number
  /**
   * The chain's JSON-RPC port (0: any free port), under the API's access rules; anvil itself
   * listens on another, free port. Default 8545.
   */
  chainPort?: number
  /** Folder for the SQLite file and the chain state; without it everything lives in memory. */
  dataDir?: string
  /**
   * The merchant API key. Default: the data folder's own, generated at its first start and kept
   * there (`paysession-sandbox api-key` prints it); without a data folder, a new one per start.
   * A key given here replaces the kept one.
   */
  apiKey?: string
  merchantId?: string
  /** 32-byte hex HD seed for one-time wallets and the treasury; generated and kept in dataDir when absent. */
  seed?: Hex
  fundingWindowSeconds?: number
  tokenTtlSeconds?: number
  /**
   * Decimals a session amount may carry, up to the tokens' 6. Default: the currency's minor units
   * (2). More lets tests show amounts at the token's full precision.
   */
  amountDecimals?: number
  webhookUrl?: string
  webhookSecret?: string
  /** Attempts before a delivery is given up. Default: no limit (webhookRetryHours decides). */
  webhookMaxAttempts?: number
  /** First retry delay in ms (default 500); each next one doubles, up to webhookMaxRetryDelay. */
  webhookRetryDelay?: number
  /** Longest delay between two attempts, in ms. Default 300000 (5 minutes). */
  webhookMaxRetryDelay?: number
  /**
   * How long after an update a failing delivery is retried, in hours. Default 24. Until then the
   * session's later updates wait behind it, so each session's updates arrive in order.
   */
  webhookRetryHours?: number
  /** Time limit of one webhook delivery attempt, in ms. Default 5000. */
  webhookRequestTimeout?: number
  /** How often the chain is scanned and queues are worked, in ms. Default 200. */
  interval?: number
  /** Upper bound for `wait: true` on the funding-transaction endpoint, in ms. Default 30000. */
  waitTimeout?: number
  /** Seconds between blocks; default: a block per transaction (automine). */
  blockTime?: number
  /**
   * `strict` answers as lean as the spec allows (only the listed fields, only the spec's path
   * form per operation, session token only for get session, ...); default: `default`, which
   * adds the documented extensions and accepts every variant.
   */
  profile?: Profile
  quiet?: boolean
  log?: (message: string) => void
}

export interface Sandbox {
  apiUrl: string
  profile: Profile
  /** The merchant API key (see SandboxOptions.apiKey). */
  apiKey: string
  merchantId: string
  rpcUrl: string
  chainId: number
  network: string
  tokens: Record<'USDC' | 'USDT' | 'EURC', { symbol: string; address: Address; decimals: number }>
  customers: { address: Address; privateKey: Hex }[]
  /** An account with ETH that submits customers' EIP-3009 authorizations (`pay --gasless`). */
  relayer: { address: Address; privateKey: Hex }
  /** Test smart-contract accounts holding test tokens: a smart account and a Safe-like one. */
  accounts: TestAccounts
  treasury: Address
  webhookSecret: string
  dataDir: string | undefined
  clock: SandboxClock
  /**
   * Pays a session from a test customer with a real transfer; defaults: its token, its amount,
   * customer 0. `gasless`: the customer signs an EIP-3009 authorization and the relayer submits it.
   */
  pay(
    sessionId: string,
    options?: { token?: string; amount?: string; from?: Hex; gasless?: boolean },
  ): Promise<Hex>
  /**
   * The API as a fetch-style handler, answered in-process without the HTTP server (the URL's
   * origin is ignored): what a custom `fetch` of the checkout or @paysession/server can call.
   */
  handle(request: Request): Promise<Response>
  /** Changes where status updates go (the spec leaves registration open). */
  setWebhookUrl(url: string | undefined): void
  /** The updates waiting to be delivered (also `GET /sandbox/webhooks/backlog`). */
  webhookBacklog(): WebhookBacklog
  stop(): Promise<void>
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  if (options.profile !== undefined && !isProfile(options.profile))
    throw new Error(`unknown profile ${JSON.stringify(options.profile)}: use default or strict`)
  const log =
    options.log ?? (options.quiet ? () => {} : (m: string) => console.log(`[sandbox] ${m}`))
  const access = createAccess(options)
  const dataDir = options.dataDir
  if (dataDir) checkWritable(dataDir)
  const db = openDatabase(dataDir)
  const stateFile = dataDir ? createStateFile(dataDir) : undefined
  // One socket path for the sandbox's life: a restarted anvil listens on it again.
  const ipcPath = newSocketPath()
  const launchAnvil = async () =>
    startAnvil({
      ipcPath,
      loadState: stateFile?.loadable(log),
      blockTime: options.blockTime,
      pidFile: dataDir ? join(dataDir, 'anvil.pid') : undefined,
      log,
    })
  let chainServer: ChainServer
  let anvil: Anvil
  try {
    chainServer = await listenChain(access, options.chainPort ?? 8545, () => anvil.ipcPath)
  } catch (e) {
    db.close()
    throw e
  }
  try {
    anvil = await launchAnvil()
  } catch (e) {
    await chainServer.close()
    rmSync(dirname(ipcPath), { recursive: true, force: true })
    db.close()
    throw e
  }
  try {
    const chain = createChainClients(chainServer.url)
    const customers = testCustomers()
    const afterStep = setupPause(log, () => stateFile?.save(chain))
    // Until the chain is supervised (watchChain, below), its death ends the start with its reason,
    // rather than a setup step waiting minutes for a receipt it cannot get.
    const chainDied = new Promise<never>((_, reject) =>
      anvil.onExit((reason) => reject(new Error(reason))),
    )
    chainDied.catch(() => {})
    const unlessChainDies = <T>(step: Promise<T>) => Promise.race([step, chainDied])
    const tokensDeployed = await unlessChainDies(
      deployTokens(
        readArtifacts(),
        chain,
        customers.map((c) => c.address),
        { afterStep, log },
      ),
    )
    if (!tokensDeployed.eip3009)
      log(
        'the saved chain state has test tokens without EIP-3009 (made by an older sandbox): gasless payments need a fresh data folder',
      )
    const relayer = { address: privateKeyToAccount(RELAYER_KEY).address, privateKey: RELAYER_KEY }
    await unlessChainDies(
      chain.testClient.setBalance({ address: relayer.address, value: parseEther('1000') }),
    )
    const accounts = await unlessChainDies(
      deployTestAccounts(chain, [customers[0]!.address, customers[1]!.address], {
        afterStep,
        log,
      }),
    )
    const seed =
      options.seed ??
      (db.meta.get('seed') as Hex | undefined) ??
      `0x${randomBytes(32).toString('hex')}`
    db.meta.set('seed', seed)
    const webhookSecret =
      options.webhookSecret ??
      db.meta.get('webhookSecret') ??
      `whsec_${randomBytes(24).toString('hex')}`
    db.meta.set('webhookSecret', webhookSecret)
    const apiKey = options.apiKey ?? db.meta.get('apiKey') ?? newApiKey()
    db.meta.set('apiKey', apiKey)
    const hd = HDKey.fromMasterSeed(Buffer.from(seed.slice(2), 'hex'))
    const treasury = hdKeyToAccount(hd, { accountIndex: 1, addressIndex: 0 }).address
    const serviceOptions = withDefaults({ ...options, apiKey, webhookSecret })
    const tokens = Object.fromEntries(
      LOCAL_TOKENS.map((t) => [
        t.symbol,
        { symbol: t.symbol, address: t.address, decimals: t.decimals },
      ]),
    ) as Sandbox['tokens']

    // Chain state on disk: saved (one save at a time) whenever the service is about to act on
    // what it saw on chain, and every couple of seconds; see createStateFile.
    let savedHead = stateFile ? await chain.publicClient.getBlockNumber() : 0n
    // The service's time, which tests move forward (createClock).
    const clock = createClock()
    let lastSave = clock.now()
    let stateError: string | undefined
    let saving: Promise<void> = Promise.resolve()
    const durable = (force = false): Promise<void> => {
      if (!stateFile) return Promise.resolve()
      const next = saving.then(async () => {
        const head = await chain.publicClient.getBlockNumber()
        if (head <= savedHead && !force) return
        try {
          await stateFile.save(chain)
          stateError = undefined
        } catch (e) {
          stateError = e instanceof Error ? e.message : String(e)
          throw e
        }
        savedHead = head
        lastSave = clock.now()
      })
      saving = next.catch(() => {})
      return next
    }
    // Saved at once: a new chain's deployments, and balances set above (which make no block).
    if (stateFile) await durable(true)
    logRequeued(log, db.webhooks.retryFailed())

    let chainUp = true
    let chainEpoch = 0
    let stopped = false
    const watchChain = (a: Anvil) =>
      a.onExit((reason) => {
        if (stopped) return
        chainUp = false
        log(reason)
        if (!stateFile) {
          log(
            'without a data folder the chain cannot be restarted: stop the sandbox and start it again',
          )
          return
        }
        void restartChain()
      })
    const restartChain = async () => {
      for (let attempt = 1; !stopped; attempt++) {
        try {
          anvil = await launchAnvil()
          chainEpoch++
          watchChain(anvil)
          savedHead = await chain.publicClient.getBlockNumber()
          chainUp = true
          log(`anvil restarted from its last saved state (block ${savedHead})`)
          service.wake()
          return
        } catch (e) {
          const message = e instanceof Error ? e.message : String(e)
          if (attempt >= 5 || e instanceof StateFileError) {
            log(
              `anvil cannot be restarted: ${message}\nThe sandbox keeps answering but cannot take payments; stop it and start it again.`,
            )
            return
          }
          service.ctx.logEvery('anvil restart', message)
          await sleep(clock, 500 * attempt)
        }
      }
    }
    watchChain(anvil)

    let apiUrl = ''
    // The Node adapter's parts: SQLite, anvil (supervised above), fetch for webhooks, and the
    // chain state saved to the data folder before the service acts on what it saw on chain.
    const service = createService({
      storage: db,
      chain,
      clock,
      deliver: (url, init) => fetch(url, init),
      hd,
      treasury,
      options: serviceOptions,
      log,
      durable: () => durable(),
      chainUp: () => chainUp,
      chainEpoch: () => chainEpoch,
      testHooks: testHooks(log),
      afterPass: async () => {
        if (clock.now() - lastSave > 2000)
          await durable().catch((e) => service.ctx.logEvery('chain state', String(e.message ?? e)))
      },
      health: () => ({
        ok: chainUp && !stateError,
        chain: chainUp ? 'running' : 'down',
        chainState: stateFile ? (stateError ?? 'saved') : 'memory',
        savedBlock: Number(savedHead),
      }),
      info: () => ({
        apiUrl,
        rpcUrl: chainServer.url,
        chainId: LOCAL_CHAIN_ID,
        network: LOCAL_NETWORK,
        merchantId: serviceOptions.merchantId,
        profile: serviceOptions.profile,
        treasury,
        tokens,
        customers: customers.map((c) => c.address),
        relayer: relayer.address,
        smartAccount: accounts.smartAccount,
        safe: accounts.safe,
        now: new Date(clock.now()).toISOString(),
      }),
    })
    const ctx = service.ctx
    const http = await listen(ctx, access, options.port ?? 4010)
    apiUrl = http.url
    service.start()

    return {
      apiUrl,
      profile: serviceOptions.profile,
      apiKey: serviceOptions.apiKey,
      merchantId: serviceOptions.merchantId,
      rpcUrl: chainServer.url,
      chainId: LOCAL_CHAIN_ID,
      network: LOCAL_NETWORK,
      tokens,
      customers,
      relayer,
      accounts,
      treasury,
      webhookSecret,
      dataDir: options.dataDir,
      clock,
      async pay(sessionId, payOptions = {}) {
        const s = db.sessions.get(sessionId)
        if (!s) throw new Error(`no session ${sessionId}`)
        const token = tokenBySymbol(payOptions.token ?? s.token_symbol)
        if (!token) throw new Error(`unknown token ${payOptions.token}`)
        const value = toUnits(payOptions.amount ?? s.amount, TOKEN_DECIMALS)
        if (value === null) throw new Error(`invalid amount ${payOptions.amount}`)
        const privateKey = payOptions.from ?? customers[0]!.privateKey
        const to = getAddress(s.otw_address)
        if (!payOptions.gasless)
          return transferToken({
            rpcUrl: chainServer.url,
            privateKey,
            token: token.address,
            to,
            value,
          })
        if (!token.eip3009) throw new Error(`${token.symbol} has no EIP-3009 authorizations`)
        return transferWithAuthorization({
          rpcUrl: chainServer.url,
          customerKey: privateKey,
          token: token.address,
          to,
          value,
        })
      },
      handle: service.handle,
      setWebhookUrl(url) {
        serviceOptions.webhookUrl = url
      },
      webhookBacklog: () => webhookBacklog(db),
      async stop() {
        stopped = true
        service.stop()
        await http.close()
        // Let on-chain jobs in flight finish before the chain goes away.
        await service.settle()
        if (chainUp) await durable().catch((e) => log(String(e.message ?? e)))
        await chainServer.close()
        await anvil.stop()
        rmSync(dirname(ipcPath), { recursive: true, force: true })
        db.close()
      },
    }
  } catch (e) {
    await chainServer.close()
    await anvil.stop()
    rmSync(dirname(ipcPath), { recursive: true, force: true })
    db.close()
    throw e
  }
}

/** Fails at once, with what to do, when the data folder cannot be written. */
function checkWritable(dataDir: string) {
  const probe = join(dataDir, '.write-check')
  try {
    mkdirSync(dataDir, { recursive: true })
    writeFileSync(probe, 'ok')
    rmSync(probe)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    throw new Error(
      `The data folder ${dataDir} cannot be written (${code ?? e}): ${
        code === 'ENOSPC'
          ? 'free some disk space'
          : 'fix its permissions or choose another with --data-dir'
      }.`,
    )
  }
}

function openDatabase(dataDir: string | undefined) {
  const path = dataDir ? join(dataDir, 'sandbox.db') : ':memory:'
  try {
    return openDb(path)
  } catch (e) {
    throw new Error(
      `The sandbox database ${path} cannot be opened (${e instanceof Error ? e.message : e}). ` +
        'Move the data folder aside to start afresh, or restore it from a backup.',
    )
  }
}

/**
 * PAYSESSION_TEST_PAUSE_AT=after-record stops every outgoing transfer between being
 * stored and being broadcast, and says so on stdout: crash tests kill the process there.
 */
function testHooks(log: (message: string) => void): Context['testHooks'] {
  if (process.env.PAYSESSION_TEST_PAUSE_AT !== 'after-record') return {}
  return {
    afterRecord: (purpose) => {
      log(`test pause: ${purpose} recorded, not broadcast`)
      console.log(`PAYSESSION_TEST_PAUSED ${purpose}`)
      return new Promise(() => {})
    },
  }
}

/**
 * PAYSESSION_TEST_PAUSE_AT=setup:<n> stops the first start after its n-th setup transaction
 * (token deployments and funding); setup-saved:<n> saves the chain state there first, as a
 * snapshot holding part of the setup. Crash tests kill the process there.
 */
function setupPause(log: (message: string) => void, save: () => Promise<void> | undefined) {
  const m = /^setup(-saved)?:(\d+)$/.exec(process.env.PAYSESSION_TEST_PAUSE_AT ?? '')
  if (!m) return undefined
  let steps = 0
  return async () => {
    if (++steps < Number(m[2])) return
    if (m[1]) await save()
    log(`test pause: setup step ${steps} done${m[1] ? ', chain state saved' : ''}`)
    console.log(`PAYSESSION_TEST_PAUSED setup:${steps}`)
    await new Promise(() => {})
  }
}
