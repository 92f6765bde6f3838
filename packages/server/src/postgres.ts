// Stores shared by every relay and webhook instance, over the `postgres` client (an optional
// peer dependency: only this entry imports it).
export {
  createPostgresDedupeStore,
  createPostgresRateLimit,
  createPostgresRelayStore,
  type PostgresRateLimitOptions,
  type PostgresStoreOptions,
} from './stores/postgres.js'
