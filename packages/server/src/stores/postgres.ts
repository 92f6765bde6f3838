import type { Sql } from 'postgres'
import {
  bucketOf,
  type RelayRateLimit,
  type TokenBucketRateLimitOptions,
} from '../relay/rateLimit.js'
import type { RelayStore } from '../relay/types.js'
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
          await tx`create table if not exists ${t('relay_store')} (
            key text primary key, value text not null,
            updated_at timestamptz not null default now())`
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
          // A delivery being handled: its holder and lease; both null once it was handled.
          await tx`alter table ${t('webhook_deliveries')}
            add column if not exists holder text, add column if not exists lease_until timestamptz`
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
 * The relay store in Postgres, for any number of relay instances: one row per key, changed only
 * by a statement that compares the row's text (`INSERT … ON CONFLICT DO NOTHING`, `UPDATE` or
 * `DELETE … WHERE value = expected`), so of racing instances exactly one succeeds. Over the
 * `postgres` client.
 * @example
 * import postgres from 'postgres'
 * const store = createPostgresRelayStore(postgres(process.env.DATABASE_URL))
 */
export function createPostgresRelayStore(
  sql: Sql,
  { prefix = 'paysession' }: PostgresStoreOptions = {},
): RelayStore {
  const { t, ready } = schema(sql, prefix)
  const table = t('relay_store')
  return {
    async get(key) {
      await ready()
      const [row] = await sql<{ value: string }[]>`
        select value from ${table} where key = ${key}`
      return row?.value
    },
    async compareAndSet(key, value, expected) {
      await ready()
      const rows =
        expected === undefined
          ? value === undefined
            ? await sql`select 1 from ${table} where key = ${key} having count(*) = 0`
            : await sql`insert into ${table} (key, value) values (${key}, ${value})
                on conflict do nothing returning 1`
          : value === undefined
            ? await sql`delete from ${table} where key = ${key} and value = ${expected} returning 1`
            : await sql`update ${table} set value = ${value}, updated_at = now()
                where key = ${key} and value = ${expected} returning 1`
      return rows.length === 1
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
 * Webhook deduplication in Postgres, shared by every instance: a row per delivery, taken with a
 * lease while it is handled (an `INSERT … ON CONFLICT` that takes only a row whose lease ran out)
 * and marked handled after, so two instances that receive it at once handle it once.
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
      return (await sql`select 1 from ${deliveries} where id = ${id} and holder is null`).length > 0
    },
    async add(id) {
      await ready()
      await sql`insert into ${deliveries} (id) values (${id})
        on conflict (id) do update set holder = null, lease_until = null, at = now()`
    },
    async claim(id, holder, leaseMs) {
      await ready()
      const [row] = await sql<{ holder: string | null }[]>`
        insert into ${deliveries} as d (id, holder, lease_until)
        values (${id}, ${holder}, now() + make_interval(secs => ${leaseMs / 1000}))
        on conflict (id) do update set holder = excluded.holder,
          lease_until = excluded.lease_until, at = now()
        where d.holder is not null and d.lease_until < now()
        returning holder`
      if (row) return 'claimed'
      const [current] = await sql<{ holder: string | null }[]>`
        select holder from ${deliveries} where id = ${id}`
      return current && current.holder === null ? 'handled' : 'handling'
    },
    async release(id, holder) {
      await ready()
      await sql`delete from ${deliveries} where id = ${id} and holder = ${holder}`
    },
  }
}
