import type { PaymentSession } from './paymentSession.js'
import type { PaySessionStorage } from './storage.js'

/**
 * What the checkout needs to learn from the chain whether a session was paid, kept per session
 * id: the one-time wallet, network, tokens, amount and funding window. Public facts only, never
 * the session token. Lets a page whose token the service refuses still read the truth on chain.
 */
export type SessionFacts = Pick<
  PaymentSession,
  | 'paymentSessionId'
  | 'status'
  | 'amount'
  | 'currency'
  | 'network'
  | 'chainId'
  | 'tokenSymbol'
  | 'acceptedTokens'
  | 'oneTimeWalletAddress'
  | 'createdAt'
  | 'expiresAt'
>

const key = (sessionId: string) => `paysession:session:${sessionId}`
const fields = [
  'paymentSessionId',
  'status',
  'amount',
  'currency',
  'network',
  'chainId',
  'tokenSymbol',
  'acceptedTokens',
  'oneTimeWalletAddress',
  'createdAt',
  'expiresAt',
] as const

export function writeSessionFacts(storage: PaySessionStorage, session: PaymentSession) {
  if (!session.oneTimeWalletAddress) return
  const facts = Object.fromEntries(fields.map((field) => [field, session[field]]))
  const value = JSON.stringify({ version: 1, ...facts })
  try {
    if (storage.getItem(key(session.paymentSessionId)) !== value)
      storage.setItem(key(session.paymentSessionId), value)
  } catch {
    // Full or disabled storage: only the fallback after a refused token is lost.
  }
}

export function readSessionFacts(
  storage: PaySessionStorage,
  sessionId: string,
): SessionFacts | undefined {
  try {
    const value = JSON.parse(storage.getItem(key(sessionId)) ?? 'null')
    return value?.version === 1 &&
      value.paymentSessionId === sessionId &&
      typeof value.amount === 'string' &&
      typeof value.oneTimeWalletAddress === 'string'
      ? value
      : undefined
  } catch {
    return undefined
  }
}
