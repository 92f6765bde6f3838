// A checkout's paths off the usual payment: a payment left in flight, a refused session token
// (`CheckoutPaths.recovery`).
export { resume, untrack, waitForPrompt } from '../checkout/recovery.js'
