import { createApiConfig, getSession, type PaymentSession, PaySessionError } from '@paysession/core'

export { formatMoney } from '../i18n/localize.js'

// The button's light read (core's getSession alone, no wallet) and the amount formatter: one chunk
// the first file loads at once, so the error class and its sentences stay out of the first file.
// The button waits for the formatter anyway to show its amount.

/** The session for the button, or why not (every failure a PaySessionError). */
export async function readSession(options: {
  apiBase: string
  fetch: typeof fetch | undefined
  sessionId: string
  sessionToken: string
}): Promise<{ session: PaymentSession } | { error: PaySessionError }> {
  try {
    const config = createApiConfig({ apiBase: options.apiBase, fetch: options.fetch })
    return { session: await getSession(config, options) }
  } catch (error) {
    return {
      error: error instanceof PaySessionError ? error : new PaySessionError('API_UNAVAILABLE'),
    }
  }
}
