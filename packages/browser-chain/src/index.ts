export {
  type BrowserChain,
  type BrowserChainOptions,
  createBrowserChain,
  type EIP1193Request,
  type JournalEntry,
  RpcError,
} from './createBrowserChain.js'
