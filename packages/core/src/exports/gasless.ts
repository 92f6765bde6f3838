// Paying without network fees (EIP-3009 and the merchant's relay): `CheckoutPaths.gasless`.
export {
  type PayWithAuthorizationErrorType,
  type PayWithAuthorizationParameters,
  type PayWithAuthorizationReturnType,
  payWithAuthorization,
} from '../actions/payWithAuthorization.js'
