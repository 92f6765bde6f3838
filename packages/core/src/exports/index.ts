export {
  type Clock,
  checkSocketUrl,
  checkUrl,
  normalizeApiBase,
  sleep,
  stablecoinAbi,
  systemClock,
} from '@paysession/protocol'
export {
  type CheckPreviousPaymentErrorType,
  type CheckPreviousPaymentParameters,
  type CheckPreviousPaymentReturnType,
  checkPreviousPayment,
  type PreviousPayment,
} from '../actions/checkPreviousPayment.js'
export {
  type ConnectWalletErrorType,
  type ConnectWalletParameters,
  type ConnectWalletReturnType,
  connectWallet,
} from '../actions/connectWallet.js'
export { disconnectWallet } from '../actions/disconnectWallet.js'
export {
  type GetOneTimeWalletFundingErrorType,
  type GetOneTimeWalletFundingParameters,
  type GetOneTimeWalletFundingReturnType,
  getOneTimeWalletFunding,
} from '../actions/getOneTimeWalletFunding.js'
export {
  type GetSessionErrorType,
  type GetSessionParameters,
  type GetSessionReturnType,
  getSession,
} from '../actions/getSession.js'
export {
  type GetStablecoinBalancesErrorType,
  type GetStablecoinBalancesParameters,
  type GetStablecoinBalancesReturnType,
  getStablecoinBalances,
  type StablecoinBalance,
} from '../actions/getStablecoinBalances.js'
export {
  type GetWalletsErrorType,
  type GetWalletsReturnType,
  getWallets,
  type WalletInfo,
  watchWallets,
} from '../actions/getWallets.js'
export {
  type PayWithWalletErrorType,
  type PayWithWalletParameters,
  type PayWithWalletReturnType,
  payWithWallet,
} from '../actions/payWithWallet.js'
export {
  type ReportFundingErrorType,
  type ReportFundingParameters,
  type ReportFundingReturnType,
  reportFunding,
} from '../actions/reportFunding.js'
export {
  type WaitForOneTimeWalletFundingErrorType,
  type WaitForOneTimeWalletFundingParameters,
  type WaitForOneTimeWalletFundingReturnType,
  waitForOneTimeWalletFunding,
} from '../actions/waitForOneTimeWalletFunding.js'
export {
  type WaitForSessionErrorType,
  type WaitForSessionParameters,
  type WaitForSessionReturnType,
  waitForSession,
} from '../actions/waitForSession.js'
export {
  sessionQueryKey,
  type WatchSessionErrorType,
  type WatchSessionParameters,
  type WatchSessionReturnType,
  watchSession,
} from '../actions/watchSession.js'
export {
  type ApiConfig,
  type CreateApiConfigParameters,
  createApiConfig,
} from '../api/config.js'
export { type PrefetchSessionParameters, prefetchSession } from '../api/prefetch.js'
export {
  type PaymentSession,
  parseSession,
  type SessionStatus,
  sessionStatuses,
} from '../api/session.js'
export {
  type ButtonStatus,
  type ButtonStatusParameters,
  buttonStatus,
} from '../checkout/buttonStatus.js'
export type { Checkout, CheckoutSessionParameters } from '../checkout/Checkout.js'
export { CheckoutSession } from '../checkout/CheckoutSession.js'
export {
  bundledPaths,
  type CreateCheckoutParameters,
  createCheckout,
} from '../checkout/createCheckout.js'
export type {
  CheckoutFacts,
  CheckoutHandle,
  CheckoutListener,
  CheckoutSessionView,
  CheckoutSettings,
  PathFlag,
  PathOffer,
  PaymentPathEntry,
  Recovery,
} from '../checkout/handle.js'
export {
  type CheckoutPaths,
  defaultPath,
  type EveryPath,
  type PaymentPath,
  type PayOptions,
  pathsFrom,
  paymentPaths,
} from '../checkout/paths/index.js'
export { SessionToken, type SessionTokenProvider } from '../checkout/sessionToken.js'
export {
  type InFlightStep,
  inFlightSteps,
  isInFlight,
  isStepIn,
  type LockedStep,
  lockedSteps,
  type OfferStep,
  offerSteps,
  type PaidStep,
  paidSteps,
} from '../checkout/steps.js'
export {
  type CheckoutEvent,
  type CheckoutMachine,
  canPay,
  initialMachine,
  transition,
} from '../checkout/transition.js'
export type {
  CheckoutState,
  CheckoutStep,
  CheckoutToken,
} from '../checkout/types.js'
export {
  type CreatePaySessionConfigParameters,
  createPaySessionConfig,
  type PaySessionConfig,
  type PollingSettings,
} from '../createPaySessionConfig.js'
export type { ApiErrorCode } from '../errors/api.js'
export {
  isPaySessionError,
  PaySessionError,
  type PaySessionErrorCode,
  type PaySessionErrorParameters,
  shortMessages,
} from '../errors/base.js'
export type { WalletErrorCode } from '../errors/wallet.js'
export { isSameAmount } from '../utils/amounts.js'
export { checkApiBase } from '../utils/apiBase.js'
export {
  checkExpectedPayment,
  type ExpectedPayment,
} from '../utils/expectedPayment.js'
export {
  clearPaymentRecord,
  type PaymentRecord,
  readPaymentRecord,
  writePaymentRecord,
} from '../utils/paymentRecord.js'
export { type PollParameters, poll } from '../utils/poll.js'
export {
  readSessionFacts,
  type SessionFacts,
  writeSessionFacts,
} from '../utils/sessionFacts.js'
export { isPaidStatus, isSettled, isTerminalStatus, type PaidStatus } from '../utils/status.js'
export { createMemoryStorage, getDefaultStorage, type PaySessionStorage } from '../utils/storage.js'
// Networks, stablecoins and amounts: everything of the `/registry` entry.
export * from './registry.js'
