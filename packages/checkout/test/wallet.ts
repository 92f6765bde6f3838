// An EIP-1193 test wallet announced through EIP-6963, forwarding to anvil, where the sandbox's
// customers are unlocked dev accounts: real transfers, no mocks. Tests can hold or reject the
// connect and send prompts through `window.__wallet`.
export type WalletOptions = { rpcUrl: string; account: string; name?: string }

export function installWallet(options: WalletOptions) {
  const { rpcUrl, account, name = 'Test Wallet' } = options
  const w = window as any
  const state = {
    hold: { connect: false, send: false } as Record<string, boolean>,
    reject: { connect: false, send: false } as Record<string, boolean>,
    release: {} as Record<string, () => void>,
    calls: [] as string[],
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
          return rpc(method, params)
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
