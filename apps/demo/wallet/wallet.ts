// The Sandbox Wallet's EIP-1193 provider: what a page may ask and what the user is asked first.
// Nothing is signed or sent without an Approve click (Reject answers 4001); listed reads go to the
// chain; any other method is 4200 (Unsupported Method).
import { type Address, bytesToHex, type EIP1193Provider, type Hex, numberToHex } from 'viem'
import { chainClient, forward, type WalletChain } from './chains.js'
import type { WalletConfig } from './config.js'
import {
  approve as approveProposal,
  type Call,
  type ContractAccount,
  execute,
  propose,
} from './contractAccounts.js'
import { describeSignature, describeTransaction } from './describe.js'
import {
  bundleTooLarge,
  invalidParams,
  invalidRequest,
  unauthorized,
  unknownBundle,
  unknownChain,
  unsupported,
  userRejected,
} from './errors.js'
import type { Prompt } from './ui.js'

export type WalletMode = 'ask' | 'autoapprove' | 'autoreject'
const modes: WalletMode[] = ['ask', 'autoapprove', 'autoreject']

/** What the wallet remembers per site, as a browser wallet does. */
type Saved = { account?: string; connected?: boolean; proposals?: Hex[] }
const storageKey = 'sandboxWallet'

// What the page may ask without the user: reads only, forwarded to the chain (what viem, wagmi
// and the checkout read). The node's accounts are unlocked, so anything else forwarded would be
// signed unasked: every other method is 4200 unless handled below.
const reads = new Set([
  'eth_blobBaseFee',
  'eth_blockNumber',
  'eth_call',
  'eth_estimateGas',
  'eth_feeHistory',
  'eth_gasPrice',
  'eth_getBalance',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getCode',
  'eth_getFilterChanges',
  'eth_getFilterLogs',
  'eth_getLogs',
  'eth_getStorageAt',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_maxPriorityFeePerGas',
  'eth_newBlockFilter',
  'eth_newFilter',
  'eth_syncing',
  'eth_uninstallFilter',
  'web3_clientVersion',
])
// Signatures, each after an Approve click. Not eth_sign (it signs any hash, a transaction's
// included: wallets turned it off) nor eth_signTransaction (a signed transaction the page could
// broadcast later, out of sight).
const signing = new Set(['personal_sign', 'eth_signTypedData_v4'])

type Pending = Prompt & { approve(): void; reject(): void }

export type SandboxWalletOptions = {
  config: WalletConfig
  /** The chain as an EIP-1193 provider when it runs in the page (the hosted demo). */
  chainProvider?: EIP1193Provider | undefined
  mode?: string | null | undefined
  /** Called after every change the UI shows. */
  onChange?: () => void
}

/** The wallet: its provider, its state for the UI, and the actions a user (or a test) takes. */
export function createSandboxWallet(options: SandboxWalletOptions) {
  const { config } = options
  const saved: Saved = (() => {
    try {
      return JSON.parse(localStorage.getItem(storageKey) ?? '{}')
    } catch {
      return {}
    }
  })()
  const localChainId = numberToHex(Number(config.chainId))
  // The contract accounts, when the sandbox deployed them.
  const contracts: ContractAccount[] = []
  if (config.smartAccount)
    contracts.push({
      kind: 'smart',
      ...(config.smartAccount as { address: Address; owner: Address; bundler: Address }),
      label: 'Smart account',
    })
  if (config.safe)
    contracts.push({
      kind: 'safe',
      ...(config.safe as { address: Address; owners: Address[] }),
      label: 'Safe (2 owners)',
    })
  const picker = [
    ...config.accounts.map((address, i) => ({ label: `Customer ${i}`, address })),
    ...contracts.map(({ label, address }) => ({ label, address })),
  ]
  const allAccounts = picker.map((o) => o.address)
  const chains = new Map<string, WalletChain>([
    [
      localChainId,
      {
        name: 'Local (sandbox)',
        client: chainClient({ rpcUrl: config.rpcUrl, provider: options.chainProvider }),
      },
    ],
  ])
  const state = {
    account:
      saved.account && allAccounts.includes(saved.account) ? saved.account : config.accounts[0]!,
    connected: saved.connected === true,
    chainId: localChainId as string,
    mode: (modes.includes(options.mode as WalletMode) ? options.mode : 'ask') as WalletMode,
    pending: [] as Pending[],
    /** EIP-5792 call bundles sent by the smart account: id → transaction hashes. */
    bundles: new Map<string, Hex[]>(),
    /** Safe proposals waiting for the second owner (kept across reloads, as a Safe does). */
    proposals: Array.isArray(saved.proposals) ? saved.proposals : [],
  }
  const changed = () => options.onChange?.()
  const contract = () => contracts.find((c) => c.address === state.account)
  const chain = () => chains.get(state.chainId)
  const rpc = (method: string, params: unknown[] = []) =>
    forward(state.chainId, chain(), method, params)
  const client = () => {
    const current = chain()?.client
    if (!current) throw unknownChain(state.chainId)
    return current
  }
  const save = () =>
    localStorage.setItem(
      storageKey,
      JSON.stringify({
        account: state.account,
        connected: state.connected,
        proposals: state.proposals,
      } satisfies Saved),
    )

  // ---- EIP-1193 events -------------------------------------------------------------------------

  const listeners = new Map<string, Set<(value: unknown) => void>>()
  const emit = (event: string, value: unknown) => {
    for (const fn of listeners.get(event) ?? []) {
      try {
        fn(value)
      } catch (error) {
        console.error(error)
      }
    }
  }

  /** Resolves when the user approves, rejects with 4001 when they reject. */
  function ask(prompt: Prompt): Promise<void> {
    return new Promise((resolve, reject) => {
      const settle = (approved: boolean) => {
        const index = state.pending.indexOf(entry)
        if (index === -1) return
        state.pending.splice(index, 1)
        changed()
        if (approved) resolve()
        else reject(userRejected())
      }
      const entry: Pending = { ...prompt, approve: () => settle(true), reject: () => settle(false) }
      state.pending.push(entry)
      if (state.mode === 'autoapprove') return queueMicrotask(entry.approve)
      if (state.mode === 'autoreject') return queueMicrotask(entry.reject)
      changed()
    })
  }

  const network = () => chain()?.name ?? state.chainId
  const confirmTransaction = (tx: { to?: unknown; data?: unknown; value?: unknown }) =>
    ask({
      kind: 'send',
      title: 'Confirm transaction',
      rows: describeTransaction(tx, {
        tokens: config.tokens,
        from: state.account,
        network: network(),
      }),
    })

  async function request(args: { method: string; params?: unknown }): Promise<unknown> {
    if (!args || typeof args !== 'object' || typeof args.method !== 'string') throw invalidRequest()
    const { method } = args
    // biome-ignore lint/suspicious/noExplicitAny: a page's JSON-RPC params arrive untyped; each method reads its own shape tolerantly.
    const params: any[] = Array.isArray(args.params) ? args.params : []
    switch (method) {
      case 'eth_chainId':
        return state.chainId
      case 'net_version':
        return String(Number.parseInt(state.chainId, 16))
      case 'eth_accounts':
        return state.connected ? [state.account] : []
      case 'eth_coinbase':
        return state.connected ? state.account : null
      case 'eth_requestAccounts':
      case 'wallet_requestPermissions': {
        if (!state.connected) {
          await ask({
            kind: 'connect',
            title: 'Connect to this site?',
            rows: [
              ['Account', state.account],
              ['Permissions', 'See your address and balances, and ask you to approve transactions'],
            ],
          })
          state.connected = true
          save()
          changed()
          emit('accountsChanged', [state.account])
        }
        return method === 'eth_requestAccounts'
          ? [state.account]
          : [{ parentCapability: 'eth_accounts', caveats: [] }]
      }
      case 'wallet_getPermissions':
        return state.connected ? [{ parentCapability: 'eth_accounts', caveats: [] }] : []
      case 'wallet_revokePermissions':
        disconnect()
        return null
      case 'wallet_switchEthereumChain': {
        const chainId = String(params[0]?.chainId ?? '').toLowerCase()
        if (!chains.has(chainId)) throw unknownChain(chainId)
        setChain(chainId)
        return null
      }
      case 'wallet_addEthereumChain': {
        const added = params[0] ?? {}
        const chainId = String(added.chainId ?? '').toLowerCase()
        if (!/^0x[0-9a-f]+$/.test(chainId)) throw invalidParams('Invalid chainId.')
        if (!chains.has(chainId)) {
          const rpcUrl: string | undefined = added.rpcUrls?.[0]
          await ask({
            kind: 'add-chain',
            title: 'Add a network?',
            rows: [
              ['Network', added.chainName ?? chainId],
              ['Chain id', String(Number.parseInt(chainId, 16))],
              ['RPC', rpcUrl ?? '—'],
            ],
          })
          chains.set(chainId, { name: added.chainName ?? chainId, client: chainClient({ rpcUrl }) })
        }
        setChain(chainId)
        return null
      }
      case 'eth_sendTransaction': {
        if (!state.connected) throw unauthorized()
        const tx = { ...(params[0] ?? {}) }
        if (tx.from && String(tx.from).toLowerCase() !== state.account.toLowerCase())
          throw unauthorized()
        tx.from = state.account
        await confirmTransaction(tx)
        const account = contract()
        if (account?.kind === 'safe') {
          const id = await propose(client(), account, tx as Call)
          state.proposals.push(id)
          save()
          changed()
          return id
        }
        if (account?.kind === 'smart') return execute(client(), account, tx as Call)
        return rpc('eth_sendTransaction', [tx])
      }
      case 'wallet_getCapabilities': {
        // Only the smart account speaks EIP-5792; the others answer like a wallet that does not.
        if (contract()?.kind !== 'smart') throw unsupported('wallet_getCapabilities')
        return { [state.chainId]: { atomic: { status: 'supported' } } }
      }
      case 'wallet_sendCalls': {
        const account = contract()
        if (!state.connected) throw unauthorized()
        if (account?.kind !== 'smart') throw unsupported('wallet_sendCalls')
        const from = params[0]?.from
        if (from && String(from).toLowerCase() !== account.address.toLowerCase())
          throw unauthorized()
        const calls: Call[] = params[0]?.calls ?? []
        if (calls.length !== 1) throw bundleTooLarge()
        const call = calls[0]!
        await confirmTransaction({ ...call, from: account.address } as never)
        const id = bytesToHex(crypto.getRandomValues(new Uint8Array(32)))
        state.bundles.set(id, [await execute(client(), account, call)])
        return { id }
      }
      case 'wallet_getCallsStatus': {
        const id = params[0]
        const hashes = state.bundles.get(id)
        if (!hashes) throw unknownBundle()
        const receipts = (await Promise.all(
          hashes.map((h) => rpc('eth_getTransactionReceipt', [h])),
        )) as ({ status: Hex } | null)[]
        const done = receipts.every(Boolean)
        return {
          version: '2.0.0',
          id,
          chainId: state.chainId,
          status: done ? (receipts.every((r) => r!.status === '0x1') ? 200 : 500) : 100,
          atomic: true,
          ...(done ? { receipts } : {}),
        }
      }
      default:
        if (signing.has(method)) {
          if (!state.connected) throw unauthorized()
          // The node holds every test customer's key unlocked: sign only as the connected account.
          const named = method === 'personal_sign' ? params[1] : params[0]
          if (String(named ?? '').toLowerCase() !== state.account.toLowerCase())
            throw unauthorized()
          const account = contract()
          if (account?.kind === 'safe')
            throw unsupported(method, 'This Safe signs nothing off chain.')
          await ask({
            kind: 'sign',
            title: 'Signature request',
            rows: describeSignature(method, params, {
              tokens: config.tokens,
              account: state.account,
            }),
          })
          // The smart account signs with its owner's key (ERC-1271: isValidSignature checks it).
          if (account?.kind === 'smart') {
            const owner = account.owner
            return rpc(method, method === 'personal_sign' ? [params[0], owner] : [owner, params[1]])
          }
          return rpc(
            method,
            method === 'personal_sign' ? [params[0], state.account] : [state.account, params[1]],
          )
        }
        if (!reads.has(method)) throw unsupported(method)
        return rpc(method, params)
    }
  }

  const provider = {
    request,
    on(event: string, fn: (value: unknown) => void) {
      if (!listeners.has(event)) listeners.set(event, new Set())
      listeners.get(event)!.add(fn)
      return provider
    },
    removeListener(event: string, fn: (value: unknown) => void) {
      listeners.get(event)?.delete(fn)
      return provider
    },
    off(event: string, fn: (value: unknown) => void) {
      return provider.removeListener(event, fn)
    },
  }

  function setChain(chainId: string) {
    if (chainId === state.chainId) return
    state.chainId = chainId
    emit('chainChanged', chainId)
    changed()
  }
  function selectAccount(index: number | 'smart' | 'safe') {
    const account =
      typeof index === 'string'
        ? contracts.find((c) => c.kind === index)?.address
        : allAccounts[index]
    if (!account || account === state.account) return
    state.account = account
    save()
    if (state.connected) emit('accountsChanged', [account])
    changed()
  }
  function disconnect() {
    if (!state.connected) return
    state.connected = false
    save()
    emit('accountsChanged', [])
    changed()
  }
  /** The second owner approves every waiting proposal: each runs in its own transaction. */
  async function approveSafe(): Promise<Hex[]> {
    const account = contracts.find((c) => c.kind === 'safe')
    if (account?.kind !== 'safe') return []
    const ids = state.proposals.splice(0)
    save()
    changed()
    const hashes: Hex[] = []
    for (const id of ids) hashes.push(await approveProposal(client(), account, id))
    return hashes
  }

  return {
    provider,
    state,
    /** The picker's entries: the test customers, then the contract accounts. */
    accounts: picker,
    selectAccount,
    disconnect,
    approveSafe,
    setMode(mode: WalletMode) {
      if (!modes.includes(mode)) throw new Error(`bad mode ${mode}`)
      state.mode = mode
    },
    /** Switches as if the user did it in the wallet (emits chainChanged), even to a network without RPC. */
    switchChain(chainId: string) {
      const id = String(chainId).toLowerCase()
      if (!chains.has(id)) chains.set(id, { name: id, client: undefined })
      setChain(id)
    },
    /** Tells the page it is connected to the chain (EIP-1193 `connect`). */
    announceConnect: () => emit('connect', { chainId: state.chainId }),
  }
}

export type SandboxWallet = ReturnType<typeof createSandboxWallet>
