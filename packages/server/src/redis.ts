// Stores shared by every relay and webhook instance, over the `ioredis` client (an optional
// peer dependency: only this entry imports it).
export {
  createRedisDedupeStore,
  createRedisRateLimit,
  createRedisRelayStore,
  type RedisStoreOptions,
} from './stores/redis.js'
