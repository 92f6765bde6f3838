import { PaySessionError } from './errors.js'

// The one rule for every URL a checkout takes or passes on (the service, the relay, the
// paymaster, a network's RPCs, which a wallet keeps after the page is gone, and explorer links,
// rendered as links): https, or plain http to this machine only, for the sandbox. Judged on the
// parsed URL, never on the text: in `http://localhost:x@evil.example/` the host is evil.example,
// so a URL with user info is refused outright (it would also put a secret in every log line).

/** localhost, 127.0.0.0/8 or [::1], as `URL` spells a host (it normalises `127.1` and `[0::1]`). */
export const isLoopbackHost = (hostname: string): boolean =>
  hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname)

/**
 * Whether the checkout may use this URL: `https:`, or `http:` to a loopback host; no user or
 * password in it.
 * @example isSecureUrl(new URL('http://127.0.0.1:4010')) // true
 */
export function isSecureUrl(url: URL): boolean {
  if (url.username !== '' || url.password !== '') return false
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))
}

/**
 * The URL as given, or `INVALID_CONFIG` naming the setting unless {@link isSecureUrl} holds. A
 * relative URL is refused unless a `base` (the page's address) is given to resolve it against.
 * @example checkUrl(relayUrl, 'relay-url', location.href)
 */
export function checkUrl(value: unknown, setting: string, base?: string): string {
  let url: URL | undefined
  try {
    url = new URL(String(value), base)
  } catch {}
  if (typeof value !== 'string' || !url || !isSecureUrl(url))
    throw new PaySessionError('INVALID_CONFIG', {
      details: `${setting} ${JSON.stringify(value)} is refused: use an https URL without a user or password (plain http only to localhost, 127.0.0.0/8 or [::1]).`,
    })
  return value
}
