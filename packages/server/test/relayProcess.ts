// One relay instance as its own process, for the many-instance tests and the relay bench:
// configured by RELAY_CONFIG (JSON), it serves the relay on a free port and prints
// `listening <port>`. STORE is `postgres` or `redis`, at STORE_URL.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Redis } from 'ioredis'
import postgres from 'postgres'
import type { Hex } from 'viem'
import { createPaySessionClient } from '../src/index.js'
import { toNodeListener } from '../src/node.js'
import { createPostgresRelayStore } from '../src/postgres.js'
import { createRedisRelayStore } from '../src/redis.js'
import { createRelayHandler, type RelayNetwork, type RelayStore } from '../src/relay.js'

export type RelayProcessConfig = {
  apiUrl: string
  apiKey: string
  /** One relayer key, or several (a lane each). */
  relayer: Hex | Hex[]
  networks: Record<string, RelayNetwork>
  store: 'postgres' | 'redis'
  storeUrl: string
}

const config = JSON.parse(process.env['RELAY_CONFIG'] ?? '') as RelayProcessConfig
const store: RelayStore =
  config.store === 'postgres'
    ? createPostgresRelayStore(postgres(config.storeUrl, { max: 10, onnotice: () => {} }))
    : createRedisRelayStore(new Redis(config.storeUrl))
const handler = createRelayHandler({
  client: createPaySessionClient({ apiBase: config.apiUrl, apiKey: config.apiKey }),
  relayer: config.relayer,
  networks: config.networks,
  store,
  rateLimit: false,
  onRejected: (error) => {
    if ((error.status ?? 503) >= 500) console.error(error.code, error.details)
  },
})
const server = createServer(toNodeListener(handler))
server.listen(Number(process.env['PORT'] ?? 0), '127.0.0.1', () => {
  console.log(`listening ${(server.address() as AddressInfo).port}`)
})
