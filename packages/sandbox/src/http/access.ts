import { ApiError } from '../service/errors.js'

// Who may call the sandbox over HTTP. It runs on a developer's machine while they browse, so a
// page of another site must neither read its answers (CORS: loopback origins and the configured
// ones only) nor reach it under a name the attacker controls (DNS rebinding: the Host header must
// name this machine, or a configured host).

export interface AccessOptions {
  /** Origins, besides loopback ones, whose pages may call the API: `https://shop.dev.example`. */
  allowedOrigins?: string[]
  /** Host names, besides loopback ones, the API answers to (behind a proxy, in a container). */
  allowedHosts?: string[]
}

export interface Access {
  /** Why a request with these headers is refused (an ApiError to answer with), or undefined. */
  refusal(host: string | undefined, origin: string | undefined): ApiError | undefined
  /** The CORS headers of an answer: the origin allowed, if it is (none without an Origin header). */
  cors(origin: string | undefined): Record<string, string>
  /** The extra headers of a preflight's answer. */
  preflight(privateNetwork: boolean): Record<string, string>
}

const IPV4_LOOPBACK = /^127(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/

/** localhost, 127.0.0.0/8 or [::1]: names only this machine answers to. */
export function isLoopbackName(hostname: string): boolean {
  const name = hostname.toLowerCase()
  return name === 'localhost' || name === '[::1]' || IPV4_LOOPBACK.test(name)
}

/** The host name of a Host header (`name`, `name:port`, `[v6]:port`), lower case; undefined if malformed. */
export function hostName(host: string): string | undefined {
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::\d{1,5})?$/i.exec(host.trim())
  return m ? m[1]!.toLowerCase() : undefined
}

/** The origin a page sends (`scheme://host[:port]`), normalised; undefined if it is not one. */
function originOf(value: string): string | undefined {
  try {
    const url = new URL(value)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
    const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password
    return bare ? url.origin : undefined
  } catch {
    return undefined
  }
}

const isLoopbackOrigin = (origin: string) => isLoopbackName(new URL(origin).hostname)

/** Checks the options at start: a typo fails at once with what to write instead. */
export function createAccess(options: AccessOptions = {}): Access {
  const origins = new Set(
    (options.allowedOrigins ?? []).map((given) => {
      const origin = originOf(given.trim())
      if (!origin)
        throw new Error(
          `allowedOrigins: "${given}" is not an origin; write it as a page's Origin header reads, e.g. https://shop.dev.example:8443.`,
        )
      return origin
    }),
  )
  const hosts = new Set(
    (options.allowedHosts ?? []).map((given) => {
      const name = hostName(given)
      if (!name)
        throw new Error(
          `allowedHosts: "${given}" is not a host name; write it as the Host header reads, e.g. sandbox.internal (any port).`,
        )
      return name
    }),
  )
  const originAllowed = (origin: string) => {
    const normal = originOf(origin)
    return normal !== undefined && (isLoopbackOrigin(normal) || origins.has(normal))
  }
  return {
    refusal(host, origin) {
      const name = host === undefined ? undefined : hostName(host)
      // No Host at all is an HTTP/1.0 client, never a browser.
      if (host !== undefined && !(name && (isLoopbackName(name) || hosts.has(name))))
        return new ApiError(
          421,
          'HOST_NOT_ALLOWED',
          `The sandbox answers only to localhost, 127.0.0.1 and [::1], not to ${JSON.stringify(host)}; add the name to allowedHosts (--allowed-hosts, PAYSESSION_ALLOWED_HOSTS) to reach it so.`,
        )
      if (origin !== undefined && !originAllowed(origin))
        return new ApiError(
          403,
          'ORIGIN_NOT_ALLOWED',
          `Pages from ${origin} may not call the sandbox; only loopback pages may, and origins added to allowedOrigins (--allowed-origins, PAYSESSION_ALLOWED_ORIGINS).`,
        )
      return undefined
    },
    cors(origin): Record<string, string> {
      // Vary on every answer: a cache must not hand one origin's answer to another.
      if (origin === undefined || !originAllowed(origin)) return { vary: 'origin' }
      return { 'access-control-allow-origin': origin, vary: 'origin' }
    },
    preflight(privateNetwork) {
      return {
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': 'authorization, content-type',
        'access-control-max-age': '600',
        // Chrome's Private Network Access: a configured public origin calling this machine.
        ...(privateNetwork ? { 'access-control-allow-private-network': 'true' } : {}),
      }
    },
  }
}
