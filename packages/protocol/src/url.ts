import { PaySessionError } from './errors.js'
import { isSecureUrl } from './secureUrl.js'

/**
 * The URL as given, or `INVALID_CONFIG` naming the setting unless {@link isSecureUrl} holds. A
 * relative URL is refused, unless `relative`: then it resolves against the page's address.
 * @example checkUrl(relayUrl, 'relayUrl', true)
 */
export function checkUrl(value: unknown, setting: string, relative?: boolean): string {
  let url: URL | undefined
  try {
    url = new URL(
      value as string,
      relative ? (globalThis as { location?: { href: string } }).location?.href : undefined,
    )
  } catch {}
  if (typeof value !== 'string' || !url || !isSecureUrl(url))
    throw new PaySessionError('INVALID_CONFIG', {
      details: `${setting} ${JSON.stringify(value)}: not https (http on localhost), or has user:password`,
    })
  return value
}

/**
 * A WebSocket URL (WalletConnect's relay) by the same rule: `wss:`, or `ws:` to this machine; else
 * `INVALID_CONFIG` naming the setting.
 * @example checkSocketUrl(relayUrl, 'walletConnectRelayUrl')
 */
export function checkSocketUrl(value: unknown, setting: string): string {
  let url: URL | undefined
  // A WebSocket opens as an HTTP request: wss is judged as https, ws as http.
  try {
    if (/^wss?:/i.test(value as string)) url = new URL((value as string).replace(/^ws/i, 'http'))
  } catch {}
  if (typeof value !== 'string' || !url || !isSecureUrl(url))
    throw new PaySessionError('INVALID_CONFIG', {
      details: `${setting} ${JSON.stringify(value)}: not wss (ws on localhost), or has user:password`,
    })
  return value
}
