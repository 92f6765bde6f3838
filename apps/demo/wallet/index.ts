// The Sandbox Wallet, loaded as a classic script by the demo's checkout pages in sandbox mode (and
// by any page, from the demo's ready-configured /sandbox-wallet.js: docs/demo.md). It acts as one
// of the sandbox's funded test customers, or as its smart account or Safe, and announces itself
// through EIP-6963 like a browser wallet; anvil holds the dev accounts' keys and signs.
//
// The hosted demo's chain runs in the page: it sets `window.__sandboxChain` (an EIP-1193
// provider) before loading this script, and the wallet sends the chain's requests there.
//
// Test hooks: `?wallet=autoapprove` or `?wallet=autoreject` on the page URL, or
// `window.__sandboxWallet` (setMode, approve, reject, pending, selectAccount, switchChain,
// approveSafe, ...).
import { announceProvider, type EIP1193Provider } from 'mipd'
import type { WalletConfig } from './config.js'
import { createWalletUi } from './ui.js'
import { createSandboxWallet, type WalletMode } from './wallet.js'

declare global {
  interface Window {
    __sandboxChain?: EIP1193Provider
    __sandboxWallet?: unknown
    ethereum?: unknown
  }
}

const icon = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><rect width="96" height="96" rx="22" fill="#2f5d50"/><rect x="18" y="30" width="60" height="42" rx="9" fill="#f4efe6"/><path d="M18 40h60" stroke="#2f5d50" stroke-width="6"/><circle cx="64" cy="56" r="6" fill="#f4c542"/><path d="M26 30l34-12 6 12" fill="none" stroke="#f4efe6" stroke-width="5" stroke-linejoin="round"/></svg>',
)}` as const

function install(config: WalletConfig) {
  const info = {
    uuid: crypto.randomUUID(),
    name: 'Sandbox Wallet',
    rdns: 'dev.paysession.sandbox',
    icon,
  } as const
  const wallet = createSandboxWallet({
    config,
    chainProvider: window.__sandboxChain,
    mode: new URLSearchParams(location.search).get('wallet'),
    onChange: () => render(),
  })
  const { state, provider } = wallet
  const ui = createWalletUi({
    icon,
    options: wallet.accounts,
    onSelect: (index) => wallet.selectAccount(index),
    onDisconnect: () => wallet.disconnect(),
    onApproveSafe: () => void wallet.approveSafe(),
    onApprove: () => state.pending[0]?.approve(),
    onReject: () => state.pending[0]?.reject(),
  })
  const render = () =>
    ui.render({
      selected: wallet.accounts.findIndex((a) => a.address === state.account),
      connected: state.connected,
      proposals: state.proposals.length,
      prompt: state.pending[0],
    })

  function mount() {
    const slot = document.querySelector('[data-sandbox-wallet-slot]')
    if (slot) ui.host.setAttribute('inline', '')
    ;(slot ?? document.body).append(ui.host)
    render()
  }
  if (document.body) mount()
  else document.addEventListener('DOMContentLoaded', mount, { once: true })

  // EIP-6963, and the legacy window.ethereum when nothing else claimed it.
  announceProvider({ info, provider: provider as EIP1193Provider })
  if (!window.ethereum) window.ethereum = provider
  queueMicrotask(wallet.announceConnect)

  window.__sandboxWallet = {
    provider,
    info,
    get account() {
      return state.account
    },
    get accounts() {
      return [...config.accounts]
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
    setMode: (mode: WalletMode) => wallet.setMode(mode),
    /** The open prompts, oldest first: [{ kind, title, rows }]. */
    pending: () => state.pending.map(({ kind, title, rows }) => ({ kind, title, rows })),
    approve: () => state.pending[0]?.approve(),
    reject: () => state.pending[0]?.reject(),
    selectAccount: wallet.selectAccount,
    disconnect: wallet.disconnect,
    /** The Safe's proposals waiting for the second owner. */
    proposals: () => [...state.proposals],
    /** Approves them as the Safe's second owner; resolves with the executing transactions. */
    approveSafe: wallet.approveSafe,
    /** As if the user switched in the wallet (emits chainChanged); e.g. '0x1' for a wrong network. */
    switchChain: wallet.switchChain,
  }
}

// The configuration is the script tag's data-config; the demo's /sandbox-wallet.js fills it in.
const config: Partial<WalletConfig> = JSON.parse(
  (document.currentScript as HTMLScriptElement | null)?.dataset.config ?? '{}',
)
if (config.rpcUrl && !window.__sandboxWallet) install(config as WalletConfig)
