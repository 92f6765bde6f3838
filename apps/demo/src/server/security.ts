import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

/**
 * The demo's browser-facing defences, in one place so a merchant copying the demo copies them:
 * which Host names it answers to, the headers every answer carries, and the same-origin checks
 * (Origin, Sec-Fetch-Site, a per-process token) on state-changing requests.
 */
export type Security = {
  /** False for a Host header naming another site (DNS rebinding, a misrouted proxy). */
  hostAllowed(req: IncomingMessage): boolean
  /** Headers for every answer (the policy only matters for pages, and harms nothing else). */
  headers(): Record<string, string>
  /** Why a POST from a browser form must be refused, or undefined when it came from this site. */
  crossSite(req: IncomingMessage): string | undefined
  /** The token console actions must carry (a hidden form field or the `x-csrf-token` header). */
  readonly csrfToken: string
  /** True when `given` is this process's token. */
  tokenValid(given: string | null | undefined): boolean
}

export type SecurityOptions = {
  /** The port the server listens on, read when a request arrives (it may be chosen by the OS). */
  port: () => number
  /** Other origins pages may call: the service's API and the chain RPC. */
  connectSources: string[]
  /** Extra host names to answer to (e.g. behind a proxy). 127.0.0.1, localhost and [::1] always are. */
  hosts?: string[]
}

export function createSecurity(options: SecurityOptions): Security {
  const csrfToken = randomBytes(32).toString('base64url')
  const names = new Set(['127.0.0.1', 'localhost', '[::1]', ...(options.hosts ?? [])])
  const connect = [...new Set(options.connectSources.map((url) => new URL(url).origin))]
  // No inline script or style anywhere: the pages load their scripts and the stylesheet from
  // /assets, the widget styles its shadow root with constructable stylesheets.
  const policy = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ${connect.join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
  const headers = {
    'content-security-policy': policy,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    // frame-ancestors for browsers that predate it.
    'x-frame-options': 'DENY',
  }

  const hostAllowed = (req: IncomingMessage) => {
    const host = (req.headers.host ?? '').toLowerCase()
    const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host)
    if (!match) return false
    const port = match[2] === undefined ? 80 : Number(match[2])
    return names.has(match[1]!) && port === options.port()
  }

  return {
    csrfToken,
    hostAllowed,
    headers: () => headers,
    crossSite(req) {
      // Browsers send Sec-Fetch-Site on every request, and Origin on every POST; tools (curl,
      // the tests, the e2e harness's order creation) send neither and are not a CSRF vector.
      const site = req.headers['sec-fetch-site']
      if (site !== undefined && site !== 'same-origin') return `Sec-Fetch-Site is ${site}`
      const origin = req.headers.origin
      // https too: behind a TLS-terminating proxy (PAYSESSION_DEMO_HOSTS) the page is https.
      const self = [`http://${req.headers.host}`, `https://${req.headers.host}`]
      if (origin !== undefined && !self.includes(origin)) return `Origin ${origin} is not this site`
      return undefined
    },
    tokenValid(given) {
      if (typeof given !== 'string') return false
      const a = Buffer.from(given)
      const b = Buffer.from(csrfToken)
      return a.length === b.length && timingSafeEqual(a, b)
    },
  }
}
