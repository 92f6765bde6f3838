import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { newest } from './buildSpa.js'

/** Where the built Sandbox Wallet is: apps/demo/dist/wallet/sandbox-wallet.js. */
export const walletFile = (appRoot: string) => join(appRoot, 'dist', 'wallet', 'sandbox-wallet.js')

/**
 * Builds the Sandbox Wallet (apps/demo/wallet → dist/wallet/sandbox-wallet.js, one classic
 * script) with Vite when it is missing or older than its sources, the protocol build or the
 * sandbox's contracts. Written atomically: two demos starting at once never serve half a file.
 */
export async function buildWallet(appRoot: string): Promise<'fresh' | 'built'> {
  const file = walletFile(appRoot)
  const require = createRequire(join(appRoot, 'package.json'))
  const inputs = Math.max(
    newest(join(appRoot, 'wallet')),
    newest(join(appRoot, 'vite.wallet.config.ts')),
    newest(dirname(require.resolve('@paysession/protocol'))),
    newest(require.resolve('@paysession/sandbox/artifacts/contracts.json')),
  )
  if (newest(file) > inputs) return 'fresh'
  const { build } = await import('vite')
  const result = await build({
    configFile: join(appRoot, 'vite.wallet.config.ts'),
    logLevel: 'error',
    build: { write: false },
  })
  const [output] = (Array.isArray(result) ? result : [result]) as { output: { code?: string }[] }[]
  const code = output?.output[0]?.code
  if (!code) throw new Error('The Sandbox Wallet build produced no script.')
  mkdirSync(dirname(file), { recursive: true })
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(temporary, code)
  renameSync(temporary, file)
  return 'built'
}
