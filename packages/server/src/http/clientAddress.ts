// The peer address of a request, kept beside it (a fetch `Request` has no socket): the relay's
// rate limit keys on it. Bodies are read with protocol's `readBody`.

const addresses = new WeakMap<Request, string>()

/** Remembers the peer address of a request built from a socket (`toNodeListener` does it). */
export function setClientAddress(request: Request, address: string | undefined): void {
  if (address) addresses.set(request, address)
}

/**
 * The peer address `toNodeListener` saw for this request, or `undefined` (a fetch-style framework
 * knows it in its own way). Never read from a header a client can set.
 */
export function clientAddressOf(request: Request): string | undefined {
  return addresses.get(request)
}
