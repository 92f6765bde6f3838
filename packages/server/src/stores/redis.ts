import type { Redis } from 'ioredis'
import { relayError } from '../relay/errors.js'
import {
  bucketOf,
  type RelayRateLimit,
  type TokenBucketRateLimitOptions,
} from '../relay/rateLimit.js'
import { type RelayRecord, type RelayStore, serializeRecord } from '../relay/types.js'
import type { WebhookDedupeStore } from '../webhooks/dedupe.js'

export type RedisStoreOptions = {
  /** Prefix of the keys. Default `paysession:`. */
  prefix?: string
}

export type RedisRelayStoreOptions = RedisStoreOptions & {
  /**
   * The nonce lock's lease (ms): a holder that dies frees it after this, and a holder that
   * stalls longer loses it and sends nothing. Longer than a send takes. Default 30 000.
   */
  nonceLockMs?: number
}

// Compare-and-set and compare-and-delete: one script runs alone on the server.
const replaceIfSame = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) return 1 end return 0`
const deleteIfSame = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1]) end return 0`
// The nonce lock's fence: only its holder extends it, or stores the nonce it sent.
const extendIfHeld = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`
const setIfHeld = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[2], ARGV[2]) return 1 end return 0`
// A token bucket on the server's clock.
const takeToken = `local burst = tonumber(ARGV[1]) local rate = tonumber(ARGV[2])
local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or burst local at = tonumber(b[2]) or now
tokens = math.min(burst, tokens + (now - at) / 1000 * rate)
local ok = 0 if tokens >= 1 then tokens = tokens - 1 ok = 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return ok`

// A claim outlives any authorization the relay accepts (validity is at most hours).
const recordTtlMs = 30 * 24 * 3600 * 1000

/**
 * The relay store in Redis, for any number of relay instances: a session is claimed with
 * `SET … NX` (or a script that compares the whole record), and the relayer's nonce is assigned
 * under a lock (`SET … NX PX`, released by a script only by its holder) that expires if its
 * holder dies; a holder that stalls past it finds the lock gone before it sends, and stores no
 * nonce. Needs one Redis primary (not a replica set read from replicas). Over `ioredis`.
 * @example
 * import { Redis } from 'ioredis'
 * const store = createRedisRelayStore(new Redis(process.env.REDIS_URL))
 */
export function createRedisRelayStore(
  redis: Redis,
  { prefix = 'paysession:', nonceLockMs = 30_000 }: RedisRelayStoreOptions = {},
): RelayStore {
  const claim = (sessionId: string) => `${prefix}relay:claim:${sessionId}`
  return {
    async get(sessionId) {
      const text = await redis.get(claim(sessionId))
      return text ? (JSON.parse(text) as RelayRecord) : undefined
    },
    async claim(sessionId, record, replacing) {
      const text = serializeRecord(record)
      if (!replacing)
        return (await redis.set(claim(sessionId), text, 'PX', recordTtlMs, 'NX')) === 'OK'
      const args = [serializeRecord(replacing), text, recordTtlMs]
      return (await redis.eval(replaceIfSame, 1, claim(sessionId), ...args)) === 1
    },
    async set(sessionId, record) {
      await redis.set(claim(sessionId), serializeRecord(record), 'PX', recordTtlMs)
    },
    async release(sessionId, record) {
      await redis.eval(deleteIfSame, 1, claim(sessionId), serializeRecord(record))
    },
    async withNonce(key, send) {
      const lock = `${prefix}relay:nonce-lock:${key}`
      const last = `${prefix}relay:nonce:${key}`
      const holder = crypto.randomUUID()
      for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
        if ((await redis.set(lock, holder, 'PX', nonceLockMs, 'NX')) === 'OK') break
        await new Promise((resolve) => setTimeout(resolve, wait * (0.5 + Math.random())))
      }
      try {
        const stored = await redis.get(last)
        const { nonce, result } = await send(stored ? JSON.parse(stored) : undefined, async () => {
          if ((await redis.eval(extendIfHeld, 1, lock, holder, nonceLockMs)) !== 1)
            throw relayError('RELAY_UNAVAILABLE', { details: 'the relayer nonce lock was lost' })
        })
        // A holder that lost the lock while sending leaves the newer holder's nonce alone.
        const accepted = JSON.stringify({ nonce, at: Date.now() })
        await redis.eval(setIfHeld, 2, lock, last, holder, accepted)
        return result
      } finally {
        await redis.eval(deleteIfSame, 1, lock, holder)
      }
    },
  }
}

/**
 * The relay's rate limit in Redis, shared by every instance: a token bucket per key on the
 * server's clock, with the defaults of `createTokenBucketRateLimit`.
 * @example createRelayHandler({ ..., rateLimit: createRedisRateLimit(redis) })
 */
export function createRedisRateLimit(
  redis: Redis,
  options: TokenBucketRateLimitOptions & RedisStoreOptions = {},
): RelayRateLimit {
  const prefix = options.prefix ?? 'paysession:'
  return async (key) => {
    const { burst, perSecond } = bucketOf(key, options)
    return (await redis.eval(takeToken, 1, `${prefix}rate:${key}`, burst, perSecond)) === 1
  }
}

/**
 * Webhook deduplication in Redis, shared by every instance: handled delivery ids, kept for
 * `ttlSeconds` (default 7 days, longer than the service retries a delivery).
 * @example createWebhookHandler({ ..., dedupe: createRedisDedupeStore(redis) })
 */
export function createRedisDedupeStore(
  redis: Redis,
  {
    prefix = 'paysession:',
    ttlSeconds = 7 * 24 * 3600,
  }: RedisStoreOptions & { ttlSeconds?: number } = {},
): WebhookDedupeStore {
  return {
    has: async (id) => (await redis.exists(`${prefix}webhook:${id}`)) === 1,
    add: async (id) => void (await redis.set(`${prefix}webhook:${id}`, '1', 'EX', ttlSeconds)),
  }
}
