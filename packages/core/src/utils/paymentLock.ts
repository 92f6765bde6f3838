import { PaySessionError } from '../errors/base.js'

type Locks = {
  request<T>(
    name: string,
    options: { ifAvailable: true },
    callback: (lock: unknown) => Promise<T>,
  ): Promise<T>
}

/**
 * Runs `critical` holding this session's payment lock, or throws `PAYMENT_IN_PROGRESS` when
 * another page of the same origin holds it. The payment record alone cannot exclude two tabs:
 * reading then writing localStorage is not atomic across them (each tab sees the other's write
 * a moment later). The Web Locks API is; the browser releases a lock when its page goes away.
 * Without it (an old browser, a server) the record is the only guard, as before.
 */
export async function withPaymentLock<T>(sessionId: string, critical: () => Promise<T>) {
  const locks = (globalThis.navigator as { locks?: Locks } | undefined)?.locks
  if (!locks?.request) return critical()
  return locks.request(`paysession:pay:${sessionId}`, { ifAvailable: true }, async (lock) => {
    if (!lock)
      throw new PaySessionError('PAYMENT_IN_PROGRESS', {
        details: 'another page of this checkout is paying it',
      })
    return critical()
  })
}
