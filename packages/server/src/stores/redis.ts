import type { Redis } from 'ioredis'
import {
  bucketOf,
  type RelayRateLimit,
  type TokenBucketRateLimitOptions,
} from '../relay/rateLimit.js'
import type { RelayStore } from '../relay/types.js'
import type { WebhookDedupeStore } from '../webhooks/dedupe.js'

export type RedisStoreOptions = {
  /** Prefix of the keys. Default `paysession:`. */
  prefix?: string
}

// Compare-and-set: one script runs alone on the server. With ARGV[3] = 1 the key's text must be
// ARGV[1], else the key must be absent; then it is set to ARGV[2], or deleted when ARGV[4] = 1.
const compareAndSet = `local current = redis.call('GET', KEYS[1])
if ARGV[3] == '1' then if current ~= ARGV[1] then return 0 end
elseif current then return 0 end
if ARGV[4] == '1' then redis.call('DEL', KEYS[1])
else redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[5]) end
return 1`
const deleteIfSame = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1]) end return 0`
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

// A value outlives any authorization the relay accepts (validity is at most hours).
const valueTtlMs = 30 * 24 * 3600 * 1000

/**
 * The relay store in Redis, for any number of relay instances: each change is a script that
 * compares the key's text before it sets or deletes it, so of racing instances exactly one
 * succeeds. Needs one Redis primary (not a replica set read from replicas). Over `ioredis`.
 * @example
 * import { Redis } from 'ioredis'
 * const store = createRedisRelayStore(new Redis(process.env.REDIS_URL))
 */
export function createRedisRelayStore(
  redis: Redis,
  { prefix = 'paysession:' }: RedisStoreOptions = {},
): RelayStore {
  const keyOf = (key: string) => `${prefix}relay:${key}`
  return {
    get: async (key) => (await redis.get(keyOf(key))) ?? undefined,
    async compareAndSet(key, value, expected) {
      const compare = expected === undefined ? 0 : 1
      const remove = value === undefined ? 1 : 0
      const args = [expected ?? '', value ?? '', compare, remove, valueTtlMs]
      return (await redis.eval(compareAndSet, 1, keyOf(key), ...args)) === 1
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
 * Webhook deduplication in Redis, shared by every instance: a delivery is taken with a lease
 * while it is handled (`SET … NX PX`) and marked handled after, kept for `ttlSeconds` (default 7
 * days, longer than the service retries a delivery).
 * @example createWebhookHandler({ ..., dedupe: createRedisDedupeStore(redis) })
 */
export function createRedisDedupeStore(
  redis: Redis,
  {
    prefix = 'paysession:',
    ttlSeconds = 7 * 24 * 3600,
  }: RedisStoreOptions & { ttlSeconds?: number } = {},
): WebhookDedupeStore {
  const key = (id: string) => `${prefix}webhook:${id}`
  const handled = '1'
  return {
    has: async (id) => (await redis.get(key(id))) === handled,
    add: async (id) => void (await redis.set(key(id), handled, 'EX', ttlSeconds)),
    async claim(id, holder, leaseMs) {
      if ((await redis.set(key(id), `lease:${holder}`, 'PX', leaseMs, 'NX')) === 'OK')
        return 'claimed'
      return (await redis.get(key(id))) === handled ? 'handled' : 'handling'
    },
    release: async (id, holder) =>
      void (await redis.eval(deleteIfSame, 1, key(id), `lease:${holder}`)),
  }
}
