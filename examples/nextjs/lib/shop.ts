import { createShop } from '@paysession/example-shop'
import { createPostgresRelayStore } from '@paysession/server/postgres'
import postgres from 'postgres'

let made: ReturnType<typeof createShop> | undefined

// Made on the first request: `next build` loads route modules without the runtime's env.
// Serverless instances come and go, so the relay's store is one every instance shares:
// Postgres at DATABASE_URL (a pooled URL on Vercel or Neon). A file would be per instance.
// Route handlers get no peer address: on Vercel, or behind any one proxy, set TRUST_PROXY=1 so
// the relay's per-IP limit reads the address the proxy appends to X-Forwarded-For.
export const shop = () =>
  (made ??= createShop(process.env, {
    relayStore: createPostgresRelayStore(postgres(process.env.DATABASE_URL!, { max: 5 })),
  }))
