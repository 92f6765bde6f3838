import type { Sql } from 'postgres'
import {
  bucketOf,
  type RelayRateLimit,
  type TokenBucketRateLimitOptions,
} from '../relay/rateLimit.js'
import { type RelayRecord, type RelayStore, serializeRecord } from '../relay/types.js'
import type { WebhookDedupeStore } from '../webhooks/dedupe.js'

export type PostgresStoreOptions = {
  /** Prefix of the tables, created on first use. Default `paysession`. */
  prefix?: string
}

/** Creates the tables once per `sql` and prefix, before the first query. */
function schema(sql: Sql, prefix: string) {
  const t = (name: string) => sql(`${prefix}_${name}`)
  let ready: Promise<unknown> | undefined
  return {
    t,
    ready: () => {
      ready ??= sql
        .begin(async (tx) => {
          // One creator at a time: CREATE TABLE IF NOT EXISTS races on the type's name.
          await tx`select pg_advisory_xact_lock(hashtextextended(${`${prefix}:schema`}, 0))`
          await tx`create table if not exists ${t('relay_claims')} (
            session_id text primary key, record text not null,
            updated_at timestamptz not null default now())`
          await tx`create table if not exists ${t('relay_nonces')} (
            key text primary key, nonce bigint not null, at bigint not null)`
          // full_at: when the bucket is full again, and its row the same as none.
          await tx`create table if not exists ${t('rate_limits')} (
            key text primary key, tokens double precision not null, at timestamptz not null,
            full_at timestamptz not null)`
          await tx`alter table ${t('rate_limits')}
            add column if not exists full_at timestamptz not null default now()`
          await tx`create index if not exists ${t('rate_limits_full_at')}
            on ${t('rate_limits')} (full_at)`
          await tx`create table if not exists ${t('webhook_deliveries')} (
            id text primary key, at timestamptz not null default now())`
        })
        .catch((error) => {
          ready = undefined
          throw error
        })
      return ready
    },
  }
}

/**
 * The relay store in Postgres, for any number of relay instances: a session is claimed with
 * `INSERT … ON CONFLICT DO NOTHING` (or an `UPDATE` that compares the whole record), and the
 * relayer's nonce is assigned under a transaction-scoped advisory lock, which Postgres lets go
 * when the holder's connection ends, a killed instance's too. Over the `postgres` client.
 * @example
 * import postgres from 'postgres'
 * const store = createPostgresRelayStore(postgres(process.env.DATABASE_URL))
 */
export function createPostgresRelayStore(
  sql: Sql,
  { prefix = 'paysession' }: PostgresStoreOptions = {},
): RelayStore {
  const { t, ready } = schema(sql, prefix)
  const claims = t('relay_claims')
  return {
    async get(sessionId) {
      await ready()
      const [row] = await sql<{ record: string }[]>`
        select record from ${claims} where session_id = ${sessionId}`
      return row ? (JSON.parse(row.record) as RelayRecord) : undefined
    },
    async claim(sessionId, record, replacing) {
      await ready()
      const text = serializeRecord(record)
      const rows = replacing
        ? await sql`update ${claims} set record = ${text}, updated_at = now()
            where session_id = ${sessionId} and record = ${serializeRecord(replacing)} returning 1`
        : await sql`insert into ${claims} (session_id, record) values (${sessionId}, ${text})
            on conflict do nothing returning 1`
      return rows.length === 1
    },
    async set(sessionId, record) {
      await ready()
      const text = serializeRecord(record)
      await sql`insert into ${claims} (session_id, record) values (${sessionId}, ${text})
        on conflict (session_id) do update set record = excluded.record, updated_at = now()`
    },
    async release(sessionId, record) {
      await ready()
      await sql`delete from ${claims}
        where session_id = ${sessionId} and record = ${serializeRecord(record)}`
    },
    async withNonce(key, send) {
      await ready()
      const nonces = t('relay_nonces')
      return sql.begin(async (tx) => {
        await tx`select pg_advisory_xact_lock(hashtextextended(${`${prefix}:nonce:${key}`}, 0))`
        const [row] = await tx<{ nonce: string; at: string }[]>`
          select nonce, at from ${nonces} where key = ${key}`
        // The lock lives as long as this transaction: a query in it fails once it is gone.
        const { nonce, result } = await send(
          row ? { nonce: Number(row.nonce), at: Number(row.at) } : undefined,
          async () => void (await tx`select 1`),
        )
        await tx`insert into ${nonces} (key, nonce, at) values (${key}, ${nonce}, ${Date.now()})
          on conflict (key) do update set nonce = excluded.nonce, at = excluded.at`
        return result
      }) as Promise<Awaited<ReturnType<typeof send>>['result']>
    },
  }
}

export type PostgresRateLimitOptions = TokenBucketRateLimitOptions &
  PostgresStoreOptions & {
    /**
     * Every this many calls, one also deletes up to 1 000 rows whose buckets are full again
     * (a full bucket counts as no row), so the table holds only callers seen lately. Default 100.
     */
    pruneEvery?: number
  }

/**
 * The relay's rate limit in Postgres, shared by every instance: a token bucket per key, refilled
 * on the database's clock, with the defaults of `createTokenBucketRateLimit`.
 * @example createRelayHandler({ ..., rateLimit: createPostgresRateLimit(sql) })
 */
export function createPostgresRateLimit(
  sql: Sql,
  options: PostgresRateLimitOptions = {},
): RelayRateLimit {
  const { t, ready } = schema(sql, options.prefix ?? 'paysession')
  const buckets = t('rate_limits')
  const pruneEvery = options.pruneEvery ?? 100
  let calls = 0
  return async (key) => {
    await ready()
    if (++calls % pruneEvery === 0)
      await sql`delete from ${buckets} where key in (
        select key from ${buckets} where full_at <= now() limit 1000)`
    const { burst, perSecond } = bucketOf(key, options)
    const refilled = sql`least(${burst}::float8, b.tokens + extract(epoch from now() - b.at) * ${perSecond}::float8)`
    const refillSeconds = (missing: ReturnType<typeof sql>) =>
      sql`now() + make_interval(secs => (${missing}) / ${perSecond}::float8)`
    const rows = await sql`
      insert into ${buckets} as b (key, tokens, at, full_at)
      values (${key}, ${burst - 1}, now(), ${refillSeconds(sql`1::float8`)})
      on conflict (key) do update
      set tokens = ${refilled} - 1, at = now(),
        full_at = ${refillSeconds(sql`${burst}::float8 - (${refilled} - 1)`)}
      where ${refilled} >= 1
      returning 1`
    return rows.length === 1
  }
}

/**
 * Webhook deduplication in Postgres, shared by every instance: handled delivery ids in a table.
 * @example createWebhookHandler({ ..., dedupe: createPostgresDedupeStore(sql) })
 */
export function createPostgresDedupeStore(
  sql: Sql,
  { prefix = 'paysession' }: PostgresStoreOptions = {},
): WebhookDedupeStore {
  const { t, ready } = schema(sql, prefix)
  const deliveries = t('webhook_deliveries')
  return {
    async has(id) {
      await ready()
      return (await sql`select 1 from ${deliveries} where id = ${id}`).length > 0
    },
    async add(id) {
      await ready()
      await sql`insert into ${deliveries} (id) values (${id}) on conflict do nothing`
    },
  }
}
