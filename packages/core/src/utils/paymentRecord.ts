import type { Address, Hex } from 'viem'
import type { PaySessionStorage } from './storage.js'

/**
 * What the SDK remembers about a payment it started, keyed by session id. Written before the
 * wallet prompt opens. Never holds the session token.
 */
export type PaymentRecord = {
  version: 1
  sessionId: string
  /**
   * `prompting`: the wallet was asked, no hash yet. `submitted`: the wallet returned `hash`.
   * `ended`: the wallet answered the send with an error, so it returned no hash; only the chain
   * can still show a transfer (checked before any new payment), no prompt is open any more.
   * `awaitingWallet`: the wallet accepted the payment but answered with something that is not a
   * transaction (a Safe's hash, a user-operation hash, a call bundle still pending): it may send
   * much later, so this blocks a new payment until the transfer shows on chain.
   */
  state: 'prompting' | 'submitted' | 'ended' | 'awaitingWallet'
  chainId: number
  token: string
  tokenAddress: Address
  from: Address
  to: Address
  /** Base units, as a decimal string. */
  amount: string
  /** Block number when the prompt opened: where to look for the transfer on chain. */
  fromBlock: string
  hash?: Hex | undefined
  /**
   * A signed EIP-3009 authorization (gasless payment): until this chain time (unix seconds) it
   * may still move the funds, so it blocks a new payment until then unless the chain says more.
   */
  validBefore?: string | undefined
  createdAt: number
}

const key = (sessionId: string) => `paysession:payment:${sessionId}`

export function readPaymentRecord(
  storage: PaySessionStorage,
  sessionId: string,
): PaymentRecord | undefined {
  try {
    const value = JSON.parse(storage.getItem(key(sessionId)) ?? 'null')
    return value?.version === 1 && value.sessionId === sessionId ? value : undefined
  } catch {
    return undefined
  }
}

export function writePaymentRecord(storage: PaySessionStorage, record: PaymentRecord) {
  storage.setItem(key(record.sessionId), JSON.stringify(record))
}

export function clearPaymentRecord(storage: PaySessionStorage, sessionId: string) {
  storage.removeItem(key(sessionId))
}
