import { PaySessionError } from './errors.js'

// The one rule for every URL a checkout takes or passes on (the service, the relay, the
// paymaster, a network's RPCs, which a wallet keeps after the page is gone, explorer links,
// rendered as links, and WalletConnect's relay, a WebSocket): https (wss), or plain http (ws) to
// this machine only, for the sandbox. Judged on the parsed URL, never on the text: in
// `http://localhost:x@evil.example/` the host is evil.example, so a URL with user info is refused
// outright (it would also put a secret in every log line).

/**
 * Whether the checkout may use this URL: `https:`, or `http:` to localhost, 127.0.0.0/8 or
 * [::1] (as `URL` spells the host: it normalises `127.1` and `[0::1]`); no user or password.
 * @example isSecureUrl(new URL('http://127.0.0.1:4010')) // true
 */
export function isSecureUrl(url: URL): boolean {
  const host = url.hostname
  return (
    !url.username &&
    !url.password &&
    (url.protocol === 'https:' ||
      (url.protocol === 'http:' &&
        (host === 'localhost' || host === '[::1]' || /^127(\.\d+){3}$/.test(host))))
  )
}

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
