export type { SessionTokenProvider } from './components/checkout/checkout.component.js'
export { PaySessionCheckout } from './components/checkout/checkout.js'
export {
  PaySessionCloseEvent,
  type PaySessionCloseEventDetail,
} from './events/close.js'
export {
  PaySessionErrorEvent,
  type PaySessionErrorEventDetail,
} from './events/error.js'
export {
  PaySessionFundingSentEvent,
  type PaySessionFundingSentEventDetail,
} from './events/funding-sent.js'
export {
  PaySessionOpenEvent,
  type PaySessionOpenEventDetail,
} from './events/open.js'
export {
  PaySessionPaidEvent,
  type PaySessionPaidEventDetail,
} from './events/paid.js'
export {
  PaySessionReadyEvent,
  type PaySessionReadyEventDetail,
} from './events/ready.js'
export {
  PaySessionStatusChangeEvent,
  type PaySessionStatusChangeEventDetail,
} from './events/status-change.js'
export {
  PaySessionStepChangeEvent,
  type PaySessionStepChangeEventDetail,
} from './events/step-change.js'
export {
  PaySessionTokenSelectedEvent,
  type PaySessionTokenSelectedEventDetail,
} from './events/token-selected.js'
export {
  PaySessionWalletConnectedEvent,
  type PaySessionWalletConnectedEventDetail,
} from './events/wallet-connected.js'
export type { Catalog } from './i18n/en.js'
