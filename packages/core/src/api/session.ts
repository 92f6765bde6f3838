import {
  parseSession as parseProtocolSession,
  type SessionStatus,
  sameName,
  servicePaths,
  sessionStatuses,
} from '@paysession/protocol'
import { PaySessionError } from '../errors/base.js'
import type { Registry } from '../registry/types.js'
import type { PaymentSession } from '../utils/paymentSession.js'
import type { ApiConfig } from './config.js'
import { apiRequest } from './request.js'

export type { PaymentSession }
export { type SessionStatus, sessionStatuses }

export async function fetchSession(
  config: ApiConfig,
  parameters: { sessionId: string; sessionToken: string; signal?: AbortSignal | undefined },
): Promise<PaymentSession> {
  const body = await apiRequest(config, {
    method: 'GET',
    paths: servicePaths('getSession', parameters),
    sessionToken: parameters.sessionToken,
    signal: parameters.signal,
  })
  return inRegistrySpelling(config.registry, parseSession(body))
}

/**
 * The protocol's parsing rules (listed fields validated, extensions used only when well-typed),
 * plus what the checkout needs: an amount.
 */
export function parseSession(body: unknown): PaymentSession {
  const session = parseProtocolSession(body)
  if (typeof session.amount !== 'string')
    throw new PaySessionError('INVALID_RESPONSE', { details: 'amount is missing or not a string' })
  return session as PaymentSession
}

/**
 * Network and token names compare case-insensitively; a name the registry knows is shown in the
 * registry's spelling (a `usdc` from the service shows as USDC everywhere).
 */
function inRegistrySpelling(
  registry: Registry | undefined,
  session: PaymentSession,
): PaymentSession {
  const network = registry?.networks.find((n) => sameName(n.name, session.network))
  if (!network) return session
  const spell = (name: string) =>
    network.tokens.find((t) => sameName(t.symbol, name))?.symbol ?? name
  const out: PaymentSession = { ...session, network: network.name }
  if (out.tokenSymbol) out.tokenSymbol = spell(out.tokenSymbol)
  if (out.acceptedTokens) out.acceptedTokens = out.acceptedTokens.map(spell)
  return out
}
