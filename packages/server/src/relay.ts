export {
  createClientIp,
  ipRateLimitKey,
  setClientAddress,
  type TrustProxy,
} from './http/clientIp.js'
export {
  createRelayHandler,
  type RelayHandler,
  type RelayHandlerOptions,
  type RelayNetwork,
  type RelayToken,
} from './relay/createRelayHandler.js'
export { type RelayErrorCode, relayStatuses } from './relay/errors.js'
export {
  createTokenBucketRateLimit,
  type RelayRateLimit,
  type TokenBucketOptions,
} from './relay/rateLimit.js'
export {
  createMemoryRelayStoreForTestsOnly,
  type RelayRecord,
  type RelayStore,
  type TransferAuthorization,
} from './relay/types.js'
