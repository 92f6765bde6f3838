import { type Client, createClient, custom, type EIP1193Provider, http } from 'viem'
import { fromChain, noRpc } from './errors.js'

/** A network the wallet knows: a viem client on its RPC, or none (a network only switched to). */
export type WalletChain = { name: string; client: Client | undefined }

/**
 * A client on an RPC URL, or on an EIP-1193 provider when the chain runs in the page (the hosted
 * demo). Never retried and never timed out: the page's own client decides both, and a
 * transaction is sent once, its answer awaited however long the node takes.
 */
export function chainClient(rpc: { rpcUrl?: string | undefined; provider?: EIP1193Provider }) {
  if (rpc.provider) return createClient({ transport: custom(rpc.provider, { retryCount: 0 }) })
  if (rpc.rpcUrl)
    return createClient({ transport: http(rpc.rpcUrl, { retryCount: 0, timeout: 0 }) })
  return undefined
}

/** Forwards one request to the chain, answering with the node's own error when it fails. */
export async function forward(
  chainId: string,
  chain: WalletChain | undefined,
  method: string,
  params: unknown[],
): Promise<unknown> {
  if (!chain?.client) throw noRpc(chainId)
  try {
    return await chain.client.request({ method, params } as never)
  } catch (error) {
    throw fromChain(error)
  }
}
