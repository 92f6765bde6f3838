export {
  createRelayHandler,
  type RelayHandler,
  type RelayHandlerOptions,
  type RelayNetwork,
} from './relay/createRelayHandler.js'
export { RelayError } from './relay/RelayError.js'
export {
  createMemoryRelayStore,
  type RelayRecord,
  type RelayRejectionCode,
  type RelayStore,
  relayRejections,
  type TransferAuthorization,
} from './relay/types.js'
