import { type Config, getClient } from '@wagmi/core'
import type { NetworkInfo } from '../registry/types.js'
import { PaySessionError } from './base.js'

/**
 * CHAIN_UNAVAILABLE for a network whose RPC did not answer: the customer reads which network; the
 * developer (`message`, `details`) reads the URL tried and how to give the SDK a working one.
 */
export function chainUnavailable(
  config: { wagmiConfig: Config },
  network: Pick<NetworkInfo, 'chainId' | 'name' | 'displayName'>,
  cause?: unknown,
): PaySessionError {
  const { chainId, name, displayName } = network
  const url = rpcUrl(config, chainId)
  const reason = (cause as { shortMessage?: string } | undefined)?.shortMessage
  return new PaySessionError('CHAIN_UNAVAILABLE', {
    shortMessage: `${displayName ?? `The ${name} network`} could not be reached. Please try again.`,
    details: `${url ? `The RPC ${url}` : 'No RPC'} for ${name} (chain id ${chainId}) did not answer${reason ? `: ${reason}` : ''}. Set one: rpcUrls: { ${chainId}: 'https://…' } in createPaySessionConfig or on <paysession-checkout>, or your wagmiConfig's transports.`,
    ...(cause === undefined ? {} : { cause }),
  })
}

function rpcUrl(config: { wagmiConfig: Config }, chainId: number): string | undefined {
  const client = getClient(config.wagmiConfig, { chainId })
  const transportUrl = (client?.transport as { url?: string } | undefined)?.url
  return transportUrl ?? client?.chain.rpcUrls.default.http[0]
}
