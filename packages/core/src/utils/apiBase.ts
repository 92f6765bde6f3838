import { isSecureUrl, normalizeApiBase } from '@paysession/protocol'
import { PaySessionError } from '../errors/base.js'

// The session token travels to this URL: anything but https would hand it (and the one-time
// wallet address the customer pays to) to whoever sits on the network path. Plain http is
// allowed only to this machine, for the sandbox (protocol's isSecureUrl, the one URL rule).

/**
 * The normalised base URL, or `INSECURE_API_BASE` unless it is `https:` (or `http:` to
 * localhost, 127.0.0.0/8 or [::1]). A relative URL resolves against the page.
 * @example checkApiBase('https://api.example.com/api/v1') // 'https://api.example.com'
 */
export function checkApiBase(apiBase: string): string {
  let url: URL | undefined
  try {
    url = new URL(apiBase, (globalThis as { location?: { href: string } }).location?.href)
  } catch {}
  if (!url || !isSecureUrl(url))
    throw new PaySessionError('INSECURE_API_BASE', { details: apiBase })
  return normalizeApiBase(apiBase)
}
