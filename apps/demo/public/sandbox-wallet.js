// Sandbox Wallet: an EIP-1193 provider announced through EIP-6963, acting as one of the
// sandbox's funded test customers on the local chain. Loaded by the demo's checkout pages in
// sandbox mode only. It behaves like a browser wallet: nothing is signed or sent without an
// Approve click (Reject answers EIP-1193 error 4001), and the page talks to it only through
// `request` and events. Signing happens in anvil, which holds the dev accounts' keys.
//
// Besides the test customers' plain accounts it can act as two smart-contract accounts the sandbox
// deploys (packages/sandbox/contracts/TestSmartAccount.sol): a smart account that speaks EIP-5792
// (`wallet_sendCalls`: the owner, customer 0, signs each call and a bundler submits it) and a
// Safe-like account whose `eth_sendTransaction` answers with a proposal id, not a transaction:
// the transfer runs only once its second owner approves ("Approve as second owner").
//
// The hosted demo has no RPC server: its chain runs in the page. It sets `window.__sandboxChain`
// (an EIP-1193 provider) before loading this script, and the wallet sends the local chain's
// requests there instead of to `rpcUrl`.
//
// Test hooks: `?wallet=autoapprove` or `?wallet=autoreject` on the page URL, or
// `window.__sandboxWallet` (setMode, approve, reject, pending, selectAccount, switchChain,
// approveSafe, ...). `selectAccount('smart')` and `selectAccount('safe')` pick the contract accounts.
;(() => {
  const script = document.currentScript
  // The demo's /sandbox-wallet.js replaces this line with its sandbox's configuration, so a page
  // can load the wallet with no data-config (docs/demo.md, "The sandbox wallet on your own page").
  const defaults = '{}'
  const config = JSON.parse(script?.dataset.config ?? defaults)
  if (!config.rpcUrl || window.__sandboxWallet) return

  const storageKey = 'sandboxWallet'
  const info = Object.freeze({
    uuid: crypto.randomUUID(),
    name: 'Sandbox Wallet',
    rdns: 'dev.paysession.sandbox',
    icon: `data:image/svg+xml,${encodeURIComponent(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><rect width="96" height="96" rx="22" fill="#2f5d50"/><rect x="18" y="30" width="60" height="42" rx="9" fill="#f4efe6"/><path d="M18 40h60" stroke="#2f5d50" stroke-width="6"/><circle cx="64" cy="56" r="6" fill="#f4c542"/><path d="M26 30l34-12 6 12" fill="none" stroke="#f4efe6" stroke-width="5" stroke-linejoin="round"/></svg>',
    )}`,
  })

  const saved = (() => {
    try {
      return JSON.parse(localStorage.getItem(storageKey) ?? '{}')
    } catch {
      return {}
    }
  })()
  const localChainId = `0x${Number(config.chainId).toString(16)}`
  // The contract accounts, when the sandbox deployed them: kind 'smart' or 'safe'.
  const contracts = [
    config.smartAccount && { kind: 'smart', ...config.smartAccount, label: 'Smart account' },
    config.safe && { kind: 'safe', ...config.safe, label: 'Safe (2 owners)' },
  ].filter(Boolean)
  const allAccounts = [...config.accounts, ...contracts.map((c) => c.address)]
  const state = {
    accounts: config.accounts,
    account: allAccounts.includes(saved.account) ? saved.account : config.accounts[0],
    connected: saved.connected === true,
    chainId: localChainId,
    chains: {
      [localChainId]: {
        rpcUrl: config.rpcUrl,
        provider: window.__sandboxChain,
        name: 'Local (sandbox)',
      },
    },
    mode: new URLSearchParams(location.search).get('wallet') ?? 'ask',
    pending: [],
    /** EIP-5792 call bundles sent by the smart account: id → transaction hashes. */
    bundles: new Map(),
    /** Safe proposals waiting for the second owner: ids (kept across reloads, as a Safe does). */
    proposals: Array.isArray(saved.proposals) ? saved.proposals : [],
  }
  const contract = () => contracts.find((c) => c.address === state.account)
  if (!['ask', 'autoapprove', 'autoreject'].includes(state.mode)) state.mode = 'ask'
  const save = () =>
    localStorage.setItem(
      storageKey,
      JSON.stringify({
        account: state.account,
        connected: state.connected,
        proposals: state.proposals,
      }),
    )

  // ---- EIP-1193 plumbing ----------------------------------------------------------------

  const listeners = new Map()
  const emit = (event, value) => {
    for (const fn of listeners.get(event) ?? []) {
      try {
        fn(value)
      } catch (error) {
        console.error(error)
      }
    }
  }
  class ProviderRpcError extends Error {
    constructor(code, message, data) {
      super(message)
      this.code = code
      if (data !== undefined) this.data = data
    }
  }
  const userRejected = () => new ProviderRpcError(4001, 'User rejected the request.')
  const unauthorized = () =>
    new ProviderRpcError(4100, 'The requested account has not been authorized by the user.')

  let rpcId = 0
  async function rpc(method, params = []) {
    const chain = state.chains[state.chainId]
    if (chain?.provider) {
      try {
        return await chain.provider.request({ method, params })
      } catch (error) {
        throw new ProviderRpcError(error.code ?? -32603, error.message, error.data)
      }
    }
    if (!chain?.rpcUrl) throw new ProviderRpcError(4901, `No RPC for chain ${state.chainId}.`)
    let response
    try {
      response = await fetch(chain.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
      })
    } catch {
      throw new ProviderRpcError(4900, 'The wallet cannot reach the chain.')
    }
    const body = await response.json()
    if (body.error) throw new ProviderRpcError(body.error.code, body.error.message, body.error.data)
    return body.result
  }

  // Methods the page may call without the user: reads only, forwarded to the chain.
  const readPrefixes = ['eth_', 'net_', 'web3_']
  const signing = new Set([
    'personal_sign',
    'eth_sign',
    'eth_signTypedData',
    'eth_signTypedData_v3',
    'eth_signTypedData_v4',
  ])

  async function request(args) {
    if (!args || typeof args !== 'object' || typeof args.method !== 'string') {
      throw new ProviderRpcError(-32600, 'Invalid request.')
    }
    const { method } = args
    const params = Array.isArray(args.params) ? args.params : []
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
          await ask({ kind: 'connect', title: 'Connect to this site?', origin: location.origin })
          state.connected = true
          save()
          render()
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
        if (!state.chains[chainId]) {
          throw new ProviderRpcError(4902, `Unrecognized chain ID "${chainId}". Add it first.`)
        }
        setChain(chainId)
        return null
      }
      case 'wallet_addEthereumChain': {
        const chain = params[0] ?? {}
        const chainId = String(chain.chainId ?? '').toLowerCase()
        if (!/^0x[0-9a-f]+$/.test(chainId)) throw new ProviderRpcError(-32602, 'Invalid chainId.')
        if (!state.chains[chainId]) {
          await ask({
            kind: 'add-chain',
            title: 'Add a network?',
            rows: [
              ['Network', chain.chainName ?? chainId],
              ['Chain id', String(Number.parseInt(chainId, 16))],
              ['RPC', chain.rpcUrls?.[0] ?? '—'],
            ],
          })
          state.chains[chainId] = { rpcUrl: chain.rpcUrls?.[0], name: chain.chainName ?? chainId }
        }
        setChain(chainId)
        return null
      }
      case 'eth_sendTransaction': {
        if (!state.connected) throw unauthorized()
        const tx = { ...(params[0] ?? {}) }
        if (tx.from && tx.from.toLowerCase() !== state.account.toLowerCase()) throw unauthorized()
        tx.from = state.account
        await ask({ kind: 'send', title: 'Confirm transaction', rows: describeTransaction(tx) })
        const account = contract()
        if (account?.kind === 'safe') return propose(account, tx)
        if (account?.kind === 'smart') return execute(account, tx)
        return rpc('eth_sendTransaction', [tx])
      }
      case 'wallet_getCapabilities': {
        // Only the smart account speaks EIP-5792; the others answer like a wallet that does not.
        if (contract()?.kind !== 'smart')
          throw new ProviderRpcError(
            4200,
            'The Sandbox Wallet does not support wallet_getCapabilities.',
          )
        return { [state.chainId]: { atomic: { status: 'supported' } } }
      }
      case 'wallet_sendCalls': {
        const account = contract()
        if (!state.connected) throw unauthorized()
        if (account?.kind !== 'smart')
          throw new ProviderRpcError(4200, 'The Sandbox Wallet does not support wallet_sendCalls.')
        const calls = params[0]?.calls ?? []
        if (calls.length !== 1) throw new ProviderRpcError(5720, 'One call at a time, please.')
        const tx = { ...calls[0], from: account.address }
        await ask({ kind: 'send', title: 'Confirm transaction', rows: describeTransaction(tx) })
        const id = `0x${[...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('')}`
        state.bundles.set(id, [await execute(account, tx)])
        return { id }
      }
      case 'wallet_getCallsStatus': {
        const id = params[0]
        const hashes = state.bundles.get(id)
        if (!hashes) throw new ProviderRpcError(5730, 'Unknown bundle id.')
        const receipts = await Promise.all(hashes.map((h) => rpc('eth_getTransactionReceipt', [h])))
        const done = receipts.every(Boolean)
        return {
          version: '2.0.0',
          id,
          chainId: state.chainId,
          status: done ? (receipts.every((r) => r.status === '0x1') ? 200 : 500) : 100,
          atomic: true,
          ...(done ? { receipts } : {}),
        }
      }
      default:
        if (signing.has(method)) {
          if (!state.connected) throw unauthorized()
          const account = contract()
          if (account?.kind === 'safe')
            throw new ProviderRpcError(4200, 'This Safe signs nothing off chain.')
          await ask({
            kind: 'sign',
            title: 'Signature request',
            rows: describeSignature(method, params),
          })
          // The smart account signs with its owner's key (ERC-1271: isValidSignature checks it).
          if (account?.kind === 'smart') {
            const owner = account.owner
            return rpc(method, method === 'personal_sign' ? [params[0], owner] : [owner, params[1]])
          }
          return rpc(method, params)
        }
        if (method.startsWith('wallet_') || !readPrefixes.some((p) => method.startsWith(p))) {
          throw new ProviderRpcError(4200, `The Sandbox Wallet does not support ${method}.`)
        }
        return rpc(method, params)
    }
  }

  // ---- The contract accounts: a little ABI encoding by hand (no libraries in this file) -----

  const strip = (hex) =>
    String(hex ?? '0x')
      .replace(/^0x/, '')
      .toLowerCase()
  const word = (hex) => strip(hex).padStart(64, '0')
  const uint = (value) => word(BigInt(value ?? 0).toString(16))
  /** Calldata for `selector(args)`; args: ['address'|'uint'|'bytes32'|'bytes', value]. */
  function encode(selector, args) {
    let head = ''
    let tail = ''
    for (const [type, value] of args) {
      if (type === 'bytes') {
        head += uint((args.length * 32 + tail.length / 2).toString())
        const data = strip(value)
        tail += uint(data.length / 2) + data.padEnd(Math.ceil(data.length / 64) * 64, '0')
      } else head += type === 'uint' ? uint(value) : word(value)
    }
    return `${selector}${head}${tail}`
  }
  async function mined(hash) {
    for (let i = 0; i < 100; i++) {
      const receipt = await rpc('eth_getTransactionReceipt', [hash])
      if (receipt) return receipt
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new ProviderRpcError(-32000, `transaction ${hash} not mined`)
  }

  /** The owner signs the call (EIP-191 over the account's callHash); the bundler submits it. */
  async function execute(account, tx) {
    const nonce = await rpc('eth_call', [{ to: account.address, data: '0xaffed0e0' }, 'latest'])
    const call = [
      ['address', tx.to],
      ['uint', tx.value ?? 0],
      ['bytes', tx.data ?? '0x'],
    ]
    const hash = await rpc('eth_call', [
      { to: account.address, data: encode('0x13d99e37', [...call, ['uint', BigInt(nonce)]]) },
      'latest',
    ])
    const signature = await rpc('eth_sign', [account.owner, hash])
    return rpc('eth_sendTransaction', [
      {
        from: account.bundler,
        to: account.address,
        data: encode('0xda0980c7', [...call, ['bytes', signature]]),
      },
    ])
  }

  /** First owner proposes; the answer is the proposal id, as a Safe answers with a safeTxHash. */
  async function propose(account, tx) {
    const hash = await rpc('eth_sendTransaction', [
      {
        from: account.owners[0],
        to: account.address,
        data: encode('0x9d481848', [
          ['address', tx.to],
          ['bytes', tx.data ?? '0x'],
        ]),
      },
    ])
    const receipt = await mined(hash)
    const log = receipt.logs.find(
      (l) => l.topics[0] === '0xfc1ef47bd0dd98d8d02efcbe562abc08a72be41c0f6cbe51dde14258c3303340',
    )
    state.proposals.push(log.topics[1])
    save()
    render()
    return log.topics[1]
  }

  /** The second owner approves every waiting proposal: each runs in its own transaction. */
  async function approveSafe() {
    const account = contracts.find((c) => c.kind === 'safe')
    const ids = state.proposals.splice(0)
    save()
    render()
    const hashes = []
    for (const id of ids)
      hashes.push(
        await mined(
          await rpc('eth_sendTransaction', [
            {
              from: account.owners[1],
              to: account.address,
              data: encode('0xa53a1adf', [['bytes32', id]]),
            },
          ]),
        ).then((r) => r.transactionHash),
      )
    return hashes
  }

  const provider = {
    request,
    on(event, fn) {
      if (!listeners.has(event)) listeners.set(event, new Set())
      listeners.get(event).add(fn)
      return provider
    },
    removeListener(event, fn) {
      listeners.get(event)?.delete(fn)
      return provider
    },
  }
  provider.off = provider.removeListener

  function setChain(chainId) {
    if (chainId === state.chainId) return
    state.chainId = chainId
    emit('chainChanged', chainId)
    render()
  }
  function selectAccount(index) {
    const account =
      typeof index === 'string'
        ? contracts.find((c) => c.kind === index)?.address
        : allAccounts[index]
    if (!account || account === state.account) return
    state.account = account
    save()
    if (state.connected) emit('accountsChanged', [account])
    render()
  }
  function disconnect() {
    if (!state.connected) return
    state.connected = false
    save()
    emit('accountsChanged', [])
    render()
  }

  // ---- What the user is asked ---------------------------------------------------------------

  const short = (value) => (value ? `${value.slice(0, 6)}…${value.slice(-4)}` : '—')
  // 12000000n with 6 decimals → "12.00": at least two decimals, no trailing zeros beyond them.
  const units = (value, decimals) => {
    const s = value.toString().padStart(decimals + 1, '0')
    const fraction = s.slice(-decimals).replace(/0+$/, '').padEnd(Math.min(2, decimals), '0')
    return `${s.slice(0, -decimals)}${fraction ? `.${fraction}` : ''}`
  }
  function describeTransaction(tx) {
    const to = String(tx.to ?? '')
    const data = String(tx.data ?? tx.input ?? '0x')
    const token = config.tokens.find((t) => t.address.toLowerCase() === to.toLowerCase())
    // ERC-20 transfer(address,uint256): show it the way wallets do, as "send 12.00 USDC to …".
    if (data.startsWith('0xa9059cbb') && data.length >= 138) {
      const recipient = `0x${data.slice(34, 74)}`
      const amount = BigInt(`0x${data.slice(74, 138)}`)
      return [
        [
          'Send',
          token ? `${units(amount, token.decimals)} ${token.symbol}` : `${amount} (token units)`,
        ],
        ['To', recipient],
        ['Token contract', to],
        ['From', state.account],
        ['Network', state.chains[state.chainId]?.name ?? state.chainId],
      ]
    }
    return [
      ['To', to || '(contract creation)'],
      ['Value', `${units(BigInt(tx.value ?? 0), 18)} ETH`],
      ['Data', data.length > 2 ? `${data.slice(0, 10)}… (${(data.length - 2) / 2} bytes)` : 'none'],
      ['From', state.account],
    ]
  }
  function describeSignature(method, params) {
    const message = method === 'personal_sign' ? params[0] : params[1]
    let text = typeof message === 'string' ? message : JSON.stringify(message)
    if (method === 'personal_sign' && /^0x[0-9a-f]*$/i.test(text)) {
      try {
        const bytes = text.slice(2).match(/../g) ?? []
        text = new TextDecoder('utf-8', { fatal: true }).decode(
          new Uint8Array(bytes.map((b) => Number.parseInt(b, 16))),
        )
      } catch {}
    }
    return [
      ['Message', text.length > 400 ? `${text.slice(0, 400)}…` : text],
      ['Account', state.account],
    ]
  }

  /** Resolves when the user approves, rejects with 4001 when they reject. */
  function ask(prompt) {
    return new Promise((resolve, reject) => {
      const entry = { ...prompt, approve: () => settle(true), reject: () => settle(false) }
      function settle(approved) {
        const index = state.pending.indexOf(entry)
        if (index === -1) return
        state.pending.splice(index, 1)
        render()
        if (approved) resolve()
        else reject(userRejected())
      }
      state.pending.push(entry)
      if (state.mode === 'autoapprove') return queueMicrotask(entry.approve)
      if (state.mode === 'autoreject') return queueMicrotask(entry.reject)
      render()
    })
  }

  // ---- UI: a small badge with the account picker, and an approval dialog --------------------

  const host = document.createElement('sandbox-wallet-ui')
  const root = host.attachShadow({ mode: 'open' })
  // The UI's CSS is a constructable stylesheet adopted by the shadow root: no <style> element
  // and no style attribute, so a page with a strict \`style-src 'self'\` CSP does not block it.
  const css = `
    :host { all: initial; }
    * { box-sizing: border-box; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
    .badge { position: fixed; left: 16px; bottom: 16px; z-index: 2147483000; display: flex; align-items: center; gap: 8px;
      max-width: calc(100vw - 32px); padding: 8px 10px; background: #fff; color: #1d2a26; border: 1px solid #d9dfdc;
      border-radius: 12px; box-shadow: 0 6px 24px #0f2a2214; }
    .badge img { flex: none; width: 22px; height: 22px; border-radius: 6px; }
    .badge strong { font-weight: 600; white-space: nowrap; }
    .badge select { flex: 0 1 auto; min-width: 0; text-overflow: ellipsis; border: 1px solid #d9dfdc; border-radius: 8px;
      padding: 3px 6px; background: #f7f8f7; color: inherit; }
    .dot { flex: none; width: 8px; height: 8px; border-radius: 50%; background: #b7bfbb; }
    .dot.on { background: #2f9e6e; }
    .link { flex: none; white-space: nowrap; background: none; border: 0; color: #2f5d50; cursor: pointer; padding: 0; text-decoration: underline; }
    /* In a page's slot ([data-sandbox-wallet-slot]) the badge sits in the flow and covers nothing. */
    :host([inline]) .badge { position: static; max-width: 100%; box-shadow: none; padding: 4px 8px; }
    /* On a phone the name gives way to the customer picker; it stays for screen readers. */
    @media (max-width: 480px) {
      .badge { gap: 6px; padding: 6px 8px; }
      .badge .name { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
    }
    dialog { width: min(380px, calc(100vw - 32px)); padding: 0; border: 0; border-radius: 16px; color: #1d2a26;
      box-shadow: 0 24px 64px #0f2a2240; }
    dialog::backdrop { background: #0f1f1a66; }
    header { display: flex; align-items: center; gap: 10px; padding: 16px 18px; border-bottom: 1px solid #eef1ef; }
    header img { width: 28px; height: 28px; border-radius: 8px; }
    header small { display: block; color: #66736e; }
    h2 { margin: 0; font-size: 15px; font-weight: 650; }
    .body { padding: 14px 18px; }
    .origin { margin: 0 0 10px; color: #66736e; }
    dl { margin: 0; display: grid; gap: 8px; }
    dl div { display: grid; gap: 2px; }
    dt { color: #66736e; font-size: 12px; }
    dd { margin: 0; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; word-break: break-all; }
    dd.big { font: 600 20px/1.3 system-ui, sans-serif; }
    footer { display: flex; gap: 10px; padding: 14px 18px 18px; }
    footer button { flex: 1; padding: 10px 12px; border-radius: 10px; font-weight: 600; cursor: pointer; border: 1px solid #cfd6d3; background: #fff; color: #1d2a26; }
    footer button.approve { background: #2f5d50; border-color: #2f5d50; color: #fff; }
    button:focus-visible, select:focus-visible { outline: 3px solid #f4c542; outline-offset: 2px; }
    @media (prefers-color-scheme: dark) {
      .badge, dialog, footer button { background: #1b2421; color: #e6efe9; border-color: #3a4a44; }
      .badge select { background: #24302c; border-color: #3a4a44; }
      header, header small, .origin, dt { color: #a8b8b1; border-color: #2c3834; }
      .link { color: #9fd3bf; }
      footer button.approve { background: #7cc4a8; border-color: #7cc4a8; color: #0d1a15; }
    }
  `
  root.innerHTML = `
  <div class="badge" part="badge">
    <img alt="" src="${info.icon}">
    <span class="name"><strong>Sandbox Wallet</strong></span>
    <span class="dot" title="Not connected"></span>
    <select aria-label="Test customer"></select>
    <button class="link" type="button" hidden>Disconnect</button>
    <button class="link safe" type="button" hidden>Approve as second owner</button>
  </div>
  <dialog aria-labelledby="sw-title">
    <header><img alt="" src="${info.icon}"><div><h2 id="sw-title"></h2><small>Sandbox Wallet · test customer</small></div></header>
    <div class="body"><p class="origin"></p><dl></dl></div>
    <footer><button type="button" class="reject">Reject</button><button type="button" class="approve">Approve</button></footer>
  </dialog>`
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function') {
    const sheet = new CSSStyleSheet()
    sheet.replaceSync(css)
    root.adoptedStyleSheets = [sheet]
  } else {
    // Browsers without constructable stylesheets (none current) get a <style> element.
    const style = document.createElement('style')
    style.textContent = css
    root.prepend(style)
  }
  const $ = (selector) => root.querySelector(selector)
  const select = $('select')
  const dialog = $('dialog')
  select.innerHTML = allAccounts
    .map((a, i) => {
      const label = contracts.find((c) => c.address === a)?.label ?? `Customer ${i}`
      return `<option value="${i}">${label} · ${short(a)}</option>`
    })
    .join('')
  $('.badge .safe').addEventListener('click', () => void approveSafe())
  select.addEventListener('change', () => selectAccount(Number(select.value)))
  $('.badge .link').addEventListener('click', disconnect)
  $('.approve').addEventListener('click', () => state.pending[0]?.approve())
  $('.reject').addEventListener('click', () => state.pending[0]?.reject())
  // Escape closes the dialog: that is a rejection, as in a wallet's popup.
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault()
    state.pending[0]?.reject()
  })

  function render() {
    select.value = String(allAccounts.indexOf(state.account))
    const waiting = $('.badge .safe')
    waiting.hidden = state.proposals.length === 0
    waiting.textContent = `Approve as second owner (${state.proposals.length})`
    const dot = $('.dot')
    dot.classList.toggle('on', state.connected)
    dot.title = state.connected ? 'Connected to this site' : 'Not connected'
    $('.badge .link').hidden = !state.connected
    const prompt = state.pending[0]
    if (!prompt) {
      if (dialog.open) dialog.close()
      return
    }
    dialog.dataset.kind = prompt.kind
    $('#sw-title').textContent = prompt.title
    $('.origin').textContent = `${location.host} asks`
    const rows =
      prompt.kind === 'connect'
        ? [
            ['Account', state.account],
            ['Permissions', 'See your address and balances, and ask you to approve transactions'],
          ]
        : prompt.rows
    const dl = $('dl')
    dl.replaceChildren(
      ...rows.map(([label, value], i) => {
        const div = document.createElement('div')
        const dt = document.createElement('dt')
        const dd = document.createElement('dd')
        dt.textContent = label
        dd.textContent = value
        if (prompt.kind === 'send' && i === 0) dd.className = 'big'
        div.append(dt, dd)
        return div
      }),
    )
    $('.approve').textContent = prompt.kind === 'connect' ? 'Connect' : 'Approve'
    // Opened last, the wallet's modal sits above any modal the page has open (the top layer).
    if (!dialog.open) {
      dialog.showModal()
      $('.approve').focus()
    }
  }

  function mount() {
    const slot = document.querySelector('[data-sandbox-wallet-slot]')
    if (slot) host.setAttribute('inline', '')
    ;(slot ?? document.body).append(host)
    render()
  }
  if (document.body) mount()
  else document.addEventListener('DOMContentLoaded', mount, { once: true })

  // ---- EIP-6963 announcement, and the legacy window.ethereum when nothing else claimed it --------

  const announce = () =>
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }),
    )
  window.addEventListener('eip6963:requestProvider', announce)
  announce()
  if (!window.ethereum) window.ethereum = provider
  queueMicrotask(() => emit('connect', { chainId: state.chainId }))

  window.__sandboxWallet = {
    provider,
    info,
    get account() {
      return state.account
    },
    get accounts() {
      return [...state.accounts]
    },
    get connected() {
      return state.connected
    },
    get chainId() {
      return state.chainId
    },
    get mode() {
      return state.mode
    },
    /** 'ask' (default), 'autoapprove' or 'autoreject'. */
    setMode(mode) {
      if (!['ask', 'autoapprove', 'autoreject'].includes(mode)) throw new Error(`bad mode ${mode}`)
      state.mode = mode
    },
    /** The open prompts, oldest first: [{ kind: 'connect' | 'send' | 'sign' | 'add-chain', title, rows }]. */
    pending: () => state.pending.map(({ kind, title, rows }) => ({ kind, title, rows })),
    approve: () => state.pending[0]?.approve(),
    reject: () => state.pending[0]?.reject(),
    selectAccount,
    disconnect,
    /** The Safe's proposals waiting for the second owner. */
    proposals: () => [...state.proposals],
    /** Approves them as the Safe's second owner; resolves with the executing transactions. */
    approveSafe,
    /** Switches as if the user did it in the wallet (emits chainChanged); e.g. '0x1' to test a wrong network. */
    switchChain(chainId) {
      const id = String(chainId).toLowerCase()
      if (!state.chains[id]) state.chains[id] = { rpcUrl: undefined, name: id }
      setChain(id)
    },
  }
})()
