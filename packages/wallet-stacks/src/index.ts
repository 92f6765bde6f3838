export {
  addressOf,
  contractAddresses,
  DETERMINISTIC_DEPLOYER,
  deployContracts,
  SAFE_SINGLETON_FACTORY,
  safeContractNetworks,
} from './contracts.js'
export {
  localChain,
  type StackEndpoints,
  startWalletStacks,
  type WalletStacks,
} from './startWalletStacks.js'
export {
  createSmartAccountWallet,
  type SmartAccountKind,
} from './wallets/erc4337.js'
export { createSafeWallet, type SafeWallet } from './wallets/safe.js'
export { createTestWallet, ProviderRpcError, type TestWallet } from './wallets/wallet.js'
