export { isPaySessionErrorCode, type PaySessionErrorCode, paySessionErrorCodes } from './codes.js'
export {
  isPaySessionError,
  PaySessionError,
  type PaySessionErrorParameters,
} from './PaySessionError.js'
