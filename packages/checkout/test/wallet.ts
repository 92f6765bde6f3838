// An EIP-1193 test wallet announced through EIP-6963, forwarding to anvil, where the sandbox's
// customers are unlocked dev accounts: real transfers, no mocks. Tests can hold or reject the
// connect and send prompts through `window.__wallet`.
//
// With `smartAccount` it acts as the sandbox's test smart account and speaks EIP-5792
// (`wallet_sendCalls`: the owner signs the call, the bundler submits it); with `safe` it acts as
// the Safe-like account, whose `eth_sendTransaction` answers with a proposal id, not a
// transaction, until `window.__wallet.approveSafe()` approves as the second owner.
export type WalletOptions = {
  rpcUrl: string
  account: string
  name?: string
  smartAccount?: { address: string; owner: string; bundler: string }
  safe?: { address: string; owners: [string, string] }
}

export function installWallet(options: WalletOptions) {
  const { rpcUrl, smartAccount, safe, name = 'Test Wallet' } = options
  const account = smartAccount?.address ?? safe?.address ?? options.account
  const w = window as any
  const state = {
    hold: { connect: false, send: false, bundle: false } as Record<string, boolean>,
    reject: { connect: false, send: false } as Record<string, boolean>,
    release: {} as Record<string, () => void>,
    calls: [] as string[],
    bundles: new Map<string, string[]>(),
    proposals: [] as string[],
    approveSafe: async () => {
      const hashes: string[] = []
      for (const id of state.proposals.splice(0))
        hashes.push(
          await mined(
            await rpc('eth_sendTransaction', [
              { from: safe!.owners[1], to: safe!.address, data: encode('0xa53a1adf', [['b', id]]) },
            ]),
          ).then((r) => r.transactionHash),
        )
      return hashes
    },
  }
  w.__wallet = state
  let id = 0
  const listeners: Record<string, ((...args: unknown[]) => void)[]> = {}
  const rejected = () => Object.assign(new Error('User rejected the request.'), { code: 4001 })
  const gate = async (kind: string) => {
    if (state.hold[kind]) await new Promise<void>((resolve) => (state.release[kind] = resolve))
    if (state.reject[kind]) throw rejected()
  }
  const rpc = async (method: string, params: unknown) => {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    })
    const body = await response.json()
    if (body.error) throw Object.assign(new Error(body.error.message), body.error)
    return body.result
  }
  // A little ABI encoding by hand: this function runs in the page, on its own.
  const strip = (hex: unknown) =>
    String(hex ?? '0x')
      .replace(/^0x/, '')
      .toLowerCase()
  const word = (hex: unknown) => strip(hex).padStart(64, '0')
  const uint = (value: unknown) => word(BigInt((value as string) ?? 0).toString(16))
  const encode = (selector: string, args: [string, unknown][]) => {
    let head = ''
    let tail = ''
    for (const [type, value] of args)
      if (type === 'bytes') {
        head += uint(args.length * 32 + tail.length / 2)
        const data = strip(value)
        tail += uint(data.length / 2) + data.padEnd(Math.ceil(data.length / 64) * 64, '0')
      } else head += type === 'uint' ? uint(value) : word(value)
    return `${selector}${head}${tail}`
  }
  const mined = async (hash: string): Promise<any> => {
    for (;;) {
      const receipt = await rpc('eth_getTransactionReceipt', [hash])
      if (receipt) return receipt
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  // TestSmartAccount.execute: the owner signs callHash (EIP-191), the bundler sends it.
  const execute = async (tx: { to: string; data?: string; value?: string }) => {
    const { address, owner, bundler } = smartAccount!
    const nonce = await rpc('eth_call', [{ to: address, data: '0xaffed0e0' }, 'latest'])
    const call: [string, unknown][] = [
      ['address', tx.to],
      ['uint', tx.value ?? 0],
      ['bytes', tx.data ?? '0x'],
    ]
    const hash = await rpc('eth_call', [
      { to: address, data: encode('0x13d99e37', [...call, ['uint', nonce]]) },
      'latest',
    ])
    const signature = await rpc('eth_sign', [owner, hash])
    return rpc('eth_sendTransaction', [
      { from: bundler, to: address, data: encode('0xda0980c7', [...call, ['bytes', signature]]) },
    ])
  }
  // TestSafe.propose by the first owner: the answer is the proposal id, like a safeTxHash.
  const propose = async (tx: { to: string; data?: string }) => {
    const receipt = await mined(
      await rpc('eth_sendTransaction', [
        {
          from: safe!.owners[0],
          to: safe!.address,
          data: encode('0x9d481848', [
            ['address', tx.to],
            ['bytes', tx.data ?? '0x'],
          ]),
        },
      ]),
    )
    const id = receipt.logs[0].topics[1] as string
    state.proposals.push(id)
    return id
  }
  const connected = () => sessionStorage.getItem('test-wallet') === 'connected'
  const provider = {
    async request({ method, params = [] }: { method: string; params?: any[] }) {
      state.calls.push(method)
      switch (method) {
        case 'eth_requestAccounts':
        case 'wallet_requestPermissions':
          await gate('connect')
          sessionStorage.setItem('test-wallet', 'connected')
          return method === 'eth_requestAccounts'
            ? [account]
            : [{ parentCapability: 'eth_accounts' }]
        case 'eth_accounts':
          return connected() ? [account] : []
        case 'wallet_revokePermissions':
          sessionStorage.removeItem('test-wallet')
          return null
        case 'wallet_switchEthereumChain':
          if (params[0]?.chainId !== '0x7a69')
            throw Object.assign(new Error('Unrecognized chain.'), { code: 4902 })
          return null
        case 'wallet_addEthereumChain':
          return null
        case 'eth_sendTransaction':
          await gate('send')
          if (safe) return propose(params[0])
          if (smartAccount) return execute(params[0])
          return rpc(method, params)
        case 'wallet_getCapabilities':
          if (!smartAccount) throw Object.assign(new Error('Unsupported method.'), { code: 4200 })
          return { '0x7a69': { atomic: { status: 'supported' } } }
        case 'wallet_sendCalls': {
          await gate('send')
          const id = `0x${crypto.randomUUID().replaceAll('-', '')}`
          const hashes: string[] = []
          state.bundles.set(id, hashes)
          // `hold.bundle`: the bundler submits only on `release.bundle()`, the bundle stays pending.
          const submit = async () => {
            hashes.push(await execute(params[0].calls[0]))
          }
          if (state.hold.bundle)
            state.release.bundle = () => {
              void submit()
            }
          else await submit()
          return { id }
        }
        case 'wallet_getCallsStatus': {
          const hashes = state.bundles.get(params[0]) ?? []
          const receipts = await Promise.all(
            hashes.map((h) => rpc('eth_getTransactionReceipt', [h])),
          )
          const done = receipts.length > 0 && receipts.every(Boolean)
          return {
            version: '2.0.0',
            id: params[0],
            chainId: '0x7a69',
            status: done ? 200 : 100,
            atomic: true,
            ...(done ? { receipts } : {}),
          }
        }
        default:
          return rpc(method, params)
      }
    },
    on(event: string, listener: (...args: unknown[]) => void) {
      listeners[event] = [...(listeners[event] ?? []), listener]
    },
    removeListener(event: string, listener: (...args: unknown[]) => void) {
      listeners[event] = (listeners[event] ?? []).filter((l) => l !== listener)
    },
  }
  const icon =
    'data:image/svg+xml;base64,' +
    btoa(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#f59e0b"/><circle cx="16" cy="16" r="7" fill="#fff"/></svg>',
    )
  const info = {
    uuid: '350670db-19fa-4704-a166-e52e178b59d2',
    name,
    icon,
    rdns: 'dev.paysession.testwallet',
  }
  const announce = () =>
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }),
    )
  window.addEventListener('eip6963:requestProvider', announce)
  announce()
}
