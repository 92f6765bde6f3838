// The error class and the codes table live in @paysession/protocol, shared with the server, so
// `instanceof PaySessionError` holds whichever package threw.
export {
  isPaySessionError,
  PaySessionError,
  type PaySessionErrorCode,
  type PaySessionErrorParameters,
  shortMessages,
} from '@paysession/protocol'
