// The error class and the codes table are the protocol's, shared with core: `instanceof
// PaySessionError` holds whichever package threw. The server produces the service's codes and
// API_UNAVAILABLE, INVALID_RESPONSE, INVALID_CONFIG, TIMEOUT and API_ERROR.
export {
  isPaySessionError,
  isPaySessionErrorCode,
  merchantError,
  PaySessionError,
  type PaySessionErrorCode,
  type PaySessionErrorParameters,
  paySessionErrorCodes,
} from '@paysession/protocol'
