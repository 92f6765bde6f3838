import {
  type Clock,
  checkExpectedPayment,
  createApiConfig,
  type ExpectedPayment,
  getSession,
  type PaymentSession,
  PaySessionError,
  systemClock,
} from '@paysession/core'

export { formatMoney } from '../i18n/localize.js'

// The button's light read (core's getSession alone, no wallet) and the amount formatter: one chunk
// the first file loads at once, so the error class and its sentences stay out of the first file.
// The button waits for the formatter anyway to show its amount.

/**
 * The session for the button, or why not (every failure a PaySessionError). A session for another
 * order (`expected-amount`, `expected-currency`) is `SESSION_MISMATCH`: the button never shows it,
 * not even as paid. `at`: when it was read, on the page's clock (the checkout takes the read if
 * it is as fresh as a poll's).
 */
export async function readSession(
  options: {
    apiBase: string
    fetch: typeof fetch | undefined
    sessionId: string
    sessionToken: string
    clock: Clock | undefined
  } & ExpectedPayment,
): Promise<{ session: PaymentSession; at: number } | { error: PaySessionError }> {
  try {
    const config = createApiConfig({ apiBase: options.apiBase, fetch: options.fetch })
    const session = await getSession(config, options)
    checkExpectedPayment(session, options)
    return { session, at: (options.clock ?? systemClock).now() }
  } catch (error) {
    return {
      error: error instanceof PaySessionError ? error : new PaySessionError('API_UNAVAILABLE'),
    }
  }
}
