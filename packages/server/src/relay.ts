export {
  createClientIp,
  ipRateLimitKey,
  setClientAddress,
  type TrustProxy,
} from './http/clientIp.js'
export { type ClaimState, claimLeaseMs } from './relay/claims.js'
export { createRelay, type Relay } from './relay/createRelay.js'
export {
  createRelayHandler,
  type RelayHandler,
} from './relay/createRelayHandler.js'
export { type RelayErrorCode, relayStatuses } from './relay/errors.js'
export type {
  Relayer,
  RelayHandlerOptions,
  RelayNetwork,
  RelayOptions,
  RelayToken,
} from './relay/options.js'
export type { Payment, RelayRequest } from './relay/parseRequest.js'
export {
  createTokenBucketRateLimit,
  type RelayRateLimit,
  type TokenBucketOptions,
  type TokenBucketRateLimitOptions,
} from './relay/rateLimit.js'
export type { SettleReturnType } from './relay/settle.js'
export {
  createMemoryRelayStoreForTestsOnly,
  type RelayRecord,
  type RelayStore,
  serializeRecord,
  type TransferAuthorization,
} from './relay/types.js'
