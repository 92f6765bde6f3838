import { paymaster } from '@pimlico/mock-paymaster'
import { freePort } from './freePort.js'

// prool (the instance helper @pimlico/mock-paymaster is built on) uses ES2024's
// Promise.withResolvers, which Node 20 lacks: the standard built-in, provided where missing.
if (!('withResolvers' in Promise))
  Object.assign(Promise, {
    withResolvers<T>() {
      let resolve!: (value: T) => void
      let reject!: (reason?: unknown) => void
      const promise = new Promise<T>((res, rej) => {
        resolve = res
        reject = rej
      })
      return { promise, resolve, reject }
    },
  })

export type Paymaster = { url: string; stop(): Promise<void> }

/**
 * Pimlico's paymaster service for tests (@pimlico/mock-paymaster): deploys Pimlico's
 * SingletonPaymaster v0.8 (with deposit at the EntryPoint) and answers ERC-7677
 * `pm_getPaymasterStubData` / `pm_getPaymasterData`, signing every user operation it is asked
 * to sponsor.
 */
export async function startPaymaster(options: {
  rpcUrl: string
  bundlerUrl: string
}): Promise<Paymaster> {
  const port = await freePort()
  const instance = paymaster({
    anvilRpc: options.rpcUrl,
    altoRpc: options.bundlerUrl,
    port,
    host: '127.0.0.1',
  })
  await instance.start()
  return { url: `http://127.0.0.1:${port}`, stop: () => instance.stop() }
}
