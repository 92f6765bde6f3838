// Networks, stablecoins and amounts only: no wallet or HTTP code, for servers and build scripts.
export { localNetwork } from '../registry/localNetwork.js'
export { networkIcon } from '../registry/networkIcon.js'
export { pinnedNetworks } from '../registry/pinnedNetworks.js'
export {
  type CreateRegistryParameters,
  createRegistry,
  extendRegistry,
  getNetwork,
  getNetworkByChainId,
  getStablecoin,
  pinnedChanges,
  resolveSessionAssets,
  restrictRegistry,
} from '../registry/registry.js'
export type { NetworkInfo, Registry, StablecoinInfo, StablecoinQuirk } from '../registry/types.js'
export {
  type FormatDecimalOptions,
  formatAmount,
  formatDecimal,
  parseAmount,
  toDecimalString,
} from '../utils/amounts.js'
