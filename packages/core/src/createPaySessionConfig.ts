import { checkUrl } from '@paysession/protocol'
import { QueryClient } from '@tanstack/query-core'
import {
  type CreateConnectorFn,
  createConfig,
  injected,
  type Config as WagmiConfig,
} from '@wagmi/core'
import { type Chain, http } from 'viem'
import { createApiConfig } from './api/config.js'
import { createRegistry } from './registry/registry.js'
import type { Registry } from './registry/types.js'
import { defaultPolling, type PollingSettings } from './utils/poll.js'
import { runQueryTimersOn } from './utils/queryTimers.js'
import { getDefaultStorage, type PaySessionStorage } from './utils/storage.js'

export type { PollingSettings }

export type CreatePaySessionConfigParameters = {
  /**
   * Service base URL, with or without `/api/v1`. Must be `https:` (`http:` only for localhost,
   * 127.0.0.1 and [::1]): otherwise `INSECURE_API_BASE` is thrown.
   */
  apiBase: string
  fetch?: typeof fetch
  /** Where the "never twice" payment records live. Defaults to `localStorage`, else memory. */
  storage?: PaySessionStorage
  /** Networks and tokens (`createRegistry`): checked as the pinned ones, URLs included. */
  registry?: Registry
  /** Your wagmi config. When absent one is built from the registry with the injected connector. */
  wagmiConfig?: WagmiConfig
  /** Extra wagmi connectors (WalletConnect, Coinbase...) for the built wagmi config. */
  connectors?: CreateConnectorFn[]
  /** RPC URL per chain id for the built wagmi config (https; plain http only to this machine). */
  rpcUrls?: Record<number, string>
  /**
   * How the SDK polls: the session's status, a call bundle, the chain. Default: every 2 s while a
   * payment is on its way (`interval`), every 8 s otherwise (`idleInterval`), backoff from 1 s to
   * 30 s after failures, every wait randomised (`jitter` 1). See `PollingSettings`.
   */
  polling?: Partial<PollingSettings> | undefined
  /** Confirmations to wait for after the transfer is mined. Default 1. */
  confirmations?: number
  /** Per-request time-out (ms). Default 15 000. */
  requestTimeout?: number
  /** How many times reporting a hash is retried after the first try. Default 8. */
  reportRetries?: number
  queryClient?: QueryClient
  /**
   * Your ERC-7677 paymaster service: a wallet that reports EIP-5792's `paymasterService` for the
   * session's chain is asked to have it sponsor the network fee (`capabilities.paymasterService`).
   * https (plain http only to this machine), or `INVALID_CONFIG`.
   */
  paymasterUrl?: string | undefined
}

export type PaySessionConfig = {
  apiBase: string
  fetch: typeof fetch
  storage: PaySessionStorage
  registry: Registry
  wagmiConfig: WagmiConfig
  queryClient: QueryClient
  polling: PollingSettings
  confirmations: number
  requestTimeout: number
  reportRetries: number
  paymasterUrl?: string | undefined
}

/**
 * Holds every dependency of the SDK. No globals: build one per checkout page (or per test).
 * @example
 * const config = createPaySessionConfig({ apiBase: 'https://api.example.com' })
 */
export function createPaySessionConfig(
  parameters: CreatePaySessionConfigParameters,
): PaySessionConfig {
  // Every URL by the one rule, where it comes in; a given registry is checked as a built one.
  for (const [chainId, url] of Object.entries(parameters.rpcUrls ?? {}))
    checkUrl(url, `rpcUrls[${chainId}]`)
  if (parameters.paymasterUrl) checkUrl(parameters.paymasterUrl, 'paymasterUrl')
  const polling: PollingSettings = { ...defaultPolling, ...definedOnly(parameters.polling) }
  runQueryTimersOn(polling.clock)
  const registry = createRegistry(
    parameters.registry
      ? { networks: parameters.registry.networks }
      : { localRpcUrl: parameters.rpcUrls?.[31337] },
  )
  return {
    // The service's calls: base URL, fetch and time-out, as a page without a wallet builds them.
    ...createApiConfig(parameters),
    storage: parameters.storage ?? getDefaultStorage(),
    registry,
    wagmiConfig: parameters.wagmiConfig ?? buildWagmiConfig(registry, parameters),
    queryClient: parameters.queryClient ?? new QueryClient(),
    polling,
    confirmations: parameters.confirmations ?? 1,
    reportRetries: parameters.reportRetries ?? 8,
    ...(parameters.paymasterUrl ? { paymasterUrl: parameters.paymasterUrl } : {}),
  }
}

function buildWagmiConfig(registry: Registry, parameters: CreatePaySessionConfigParameters) {
  const chains = registry.networks.map((network): Chain => {
    const url = parameters.rpcUrls?.[network.chainId]
    return url ? { ...network.chain, rpcUrls: { default: { http: [url] } } } : network.chain
  })
  if (chains.length === 0) throw new Error('createPaySessionConfig: the registry has no network')
  return createConfig({
    chains: chains as [Chain, ...Chain[]],
    connectors: [injected(), ...(parameters.connectors ?? [])],
    transports: Object.fromEntries(chains.map((chain) => [chain.id, http()])),
  })
}

/** The settings given, without the keys set to `undefined` (an element's unset attribute). */
const definedOnly = <T extends object>(settings: T | undefined): Partial<T> =>
  Object.fromEntries(
    Object.entries(settings ?? {}).filter(([, value]) => value !== undefined),
  ) as Partial<T>
