import ipaddr from 'ipaddr.js'
import { merchantError } from '../errors/index.js'

/**
 * Who may say which address a request came from:
 * - `false` or `0` (the default): nobody; the caller is the peer, the socket's address through
 *   `toNodeListener`, or what your runtime hands {@link setClientAddress};
 * - `'cloudflare'`: Cloudflare's `CF-Connecting-IP`, on Workers or on an origin only Cloudflare
 *   can reach (anyone who reaches it directly can write that header);
 * - a number of proxies, each appending the address it saw to `X-Forwarded-For` (a platform's
 *   load balancer is 1): the caller is that many entries from the right;
 * - your proxies' addresses or CIDRs (`['10.0.0.0/8']`, the peer's address is needed): the
 *   caller is the first address, from the peer leftward through `X-Forwarded-For`, not among
 *   them.
 *
 * Never an entry left of what your proxies wrote: the caller writes those. The text form, as
 * in an environment variable, is accepted too: `"cloudflare"`, `"1"`, `"10.0.0.0/8,10.1.0.7"`,
 * `""`, `"0"`.
 */
export type TrustProxy = false | 'cloudflare' | number | readonly string[] | string

type Address = ipaddr.IPv4 | ipaddr.IPv6

const peers = new WeakMap<Request, string>()

/**
 * Tells the handlers the peer address of a request, in a runtime that knows it in its own way
 * (`toNodeListener` does it for `node:http`).
 * @example Bun.serve({ fetch: (request, server) => (setClientAddress(request, server.requestIP(request)?.address), relay(request)) })
 */
export function setClientAddress(request: Request, address: string | undefined): void {
  if (address) peers.set(request, address)
}

function parse(text: string | null | undefined): Address | undefined {
  if (!text) return undefined
  let value = text.trim()
  // "[v6]:port", "v4:port" (some proxies add the port) and "v6%zone".
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value)
  if (bracketed) value = bracketed[1]!
  else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.indexOf(':'))
  value = value.replace(/%.*$/, '')
  // Dotted quads only (ipaddr.js also reads "1.2.3" and "0x7f.1"). An IPv4-mapped IPv6 address
  // (a dual-stack socket's) is its IPv4 address.
  return ipaddr.IPv4.isValidFourPartDecimal(value) || ipaddr.IPv6.isValid(value)
    ? ipaddr.process(value)
    : undefined
}

function forwardedFor(request: Request): string[] {
  const header = request.headers.get('x-forwarded-for')
  return header ? header.split(',').map((entry) => entry.trim()) : []
}

function invalid(details: string): never {
  throw merchantError('INVALID_CONFIG', {
    shortMessage:
      'trustProxy must be false, "cloudflare", the number of proxies in front of the handler, or a list of their addresses or CIDRs.',
    details,
    docsPath: 'docs/server.md#the-callers-address-behind-a-proxy',
  })
}

/** The setting in its own form: `false`, `'cloudflare'`, a number of hops, or ranges. */
function settingOf(trustProxy: TrustProxy | undefined): false | 'cloudflare' | number | string[] {
  if (trustProxy === undefined || trustProxy === false || trustProxy === '' || trustProxy === 0)
    return false
  if (typeof trustProxy === 'number') {
    if (Number.isInteger(trustProxy) && trustProxy >= 1 && trustProxy <= 16) return trustProxy
    return invalid(`trustProxy is ${trustProxy}; a number of proxies is a whole number up to 16.`)
  }
  if (typeof trustProxy === 'string') {
    const text = trustProxy.trim()
    if (text.toLowerCase() === 'cloudflare') return 'cloudflare'
    if (text === 'false') return false
    if (/^\d+$/.test(text)) return settingOf(Number(text))
    return settingOf(text.split(',').map((entry) => entry.trim()))
  }
  if (Array.isArray(trustProxy)) {
    for (const entry of trustProxy)
      if (typeof entry !== 'string' || !(ipaddr.isValidCIDR(entry) || ipaddr.isValid(entry)))
        invalid(`${JSON.stringify(entry)} is neither an IP address nor a CIDR.`)
    return [...trustProxy]
  }
  return invalid(`trustProxy is ${JSON.stringify(trustProxy)}.`)
}

/**
 * The caller's address as `trustProxy` says to read it: `(request) => address`, or `undefined`
 * when it cannot be told (no peer address, fewer `X-Forwarded-For` entries than proxies). The
 * address is normalized (an IPv4-mapped IPv6 address is its IPv4 address). A setting it cannot
 * read throws `INVALID_CONFIG` here, not on the first request.
 * @example const clientIp = createClientIp(process.env.TRUST_PROXY) // "1" behind one load balancer
 */
export function createClientIp(trustProxy?: TrustProxy): (request: Request) => string | undefined {
  const setting = settingOf(trustProxy)
  const peerOf = (request: Request) => parse(peers.get(request))
  if (setting === false) return (request) => peerOf(request)?.toString()
  if (setting === 'cloudflare')
    return (request) => parse(request.headers.get('cf-connecting-ip'))?.toString()
  if (typeof setting === 'number')
    return (request) => {
      const entries = forwardedFor(request)
      return parse(entries[entries.length - setting])?.toString()
    }
  const trusted = setting.map((entry) =>
    ipaddr.isValidCIDR(entry)
      ? ipaddr.parseCIDR(entry)
      : ([ipaddr.parse(entry), ipaddr.parse(entry).kind() === 'ipv4' ? 32 : 128] as const),
  )
  const isTrusted = (address: Address) =>
    trusted.some(([range, bits]) => {
      // A v4 range matches a v4 address only, and so on: ipaddr.js refuses mixed kinds.
      if (address.kind() !== range.kind()) return false
      return address.match(range as never, bits)
    })
  return (request) => {
    let address = peerOf(request)
    const entries = forwardedFor(request)
    while (address && isTrusted(address) && entries.length > 0) address = parse(entries.pop())
    return address?.toString()
  }
}

/**
 * The rate limit's key for a caller: `ip:<address>`; an IPv6 caller by its /64, the block one
 * subscriber gets; and `ip:unknown` for every caller whose address cannot be told, so they
 * share one limit rather than none.
 * @example ipRateLimitKey('2001:db8:1:2::7') // 'ip:2001:db8:1:2::/64'
 */
export function ipRateLimitKey(ip: string | undefined): string {
  if (ip === undefined) return 'ip:unknown'
  const address = parse(ip)
  if (address?.kind() !== 'ipv6') return `ip:${ip}`
  return `ip:${ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/64`).toString()}/64`
}
