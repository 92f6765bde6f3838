import { systemClock } from '@paysession/protocol'

/**
 * Decides whether the relay may do the work for one more request: `key` is `ip:<address>` or
 * `session:<id>`, and both are asked for each request (the IP when it is known). Return `false`
 * to answer `429 RATE_LIMITED`. Replace it with your own, e.g. over Redis for several processes.
 */
export type RelayRateLimit = (key: string) => boolean | Promise<boolean>

export type TokenBucketOptions = {
  /** Requests one caller may make at once. */
  burst: number
  /** Requests added back per second. */
  perSecond: number
  /** Callers remembered; the least recently seen are forgotten first. Default 10 000. */
  maxKeys?: number
}

/**
 * The relay's default rate limit, in this process: a token bucket per key, 20 requests at once
 * and one more every 2 seconds per IP, 6 at once and one more every 10 seconds per session.
 * @example createRelayHandler({ ..., rateLimit: createTokenBucketRateLimit({ ip: { burst: 60, perSecond: 2 } }) })
 */
export function createTokenBucketRateLimit(
  options: TokenBucketRateLimitOptions = {},
  now: () => number = systemClock.now,
): RelayRateLimit {
  const buckets = new Map<string, { tokens: number; at: number }>()
  return (key) => {
    const kind = bucketOf(key, options)
    const at = now()
    const previous = buckets.get(key)
    const refilled = previous
      ? Math.min(kind.burst, previous.tokens + ((at - previous.at) / 1000) * kind.perSecond)
      : kind.burst
    buckets.delete(key)
    const allowed = refilled >= 1
    buckets.set(key, { tokens: allowed ? refilled - 1 : refilled, at })
    for (const oldest of buckets.keys()) {
      if (buckets.size <= (kind.maxKeys ?? 10_000)) break
      buckets.delete(oldest)
    }
    return allowed
  }
}

export type TokenBucketRateLimitOptions = { ip?: TokenBucketOptions; session?: TokenBucketOptions }

/** The bucket a key is counted in, with the defaults every rate limit shares. */
export function bucketOf(key: string, options: TokenBucketRateLimitOptions): TokenBucketOptions {
  return key.startsWith('session:')
    ? (options.session ?? { burst: 6, perSecond: 0.1 })
    : (options.ip ?? { burst: 20, perSecond: 0.5 })
}
