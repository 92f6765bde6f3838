import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'

export function newest(path: string): number {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))))
}

export type BuildSpaResult = 'fresh' | 'built' | 'no-checkout-build' | 'failed'

/**
 * Builds the SPA (apps/demo/spa → dist/spa) with Vite when it is missing or older
 * than its sources or the `@paysession/checkout` build it bundles; a second start skips it.
 */
export async function buildSpa(options: {
  appRoot: string
  checkoutDist: string
  log: (message: string) => void
}): Promise<BuildSpaResult> {
  const { appRoot, checkoutDist, log } = options
  if (!existsSync(join(checkoutDist, 'index.js'))) return 'no-checkout-build'
  const output = newest(join(appRoot, 'dist', 'spa', 'index.html'))
  const inputs = Math.max(
    newest(join(appRoot, 'spa')),
    newest(join(appRoot, 'vite.config.ts')),
    newest(checkoutDist),
    newest(join(dirname(checkoutDist), '..', 'core', 'dist')),
  )
  if (output > inputs) return 'fresh'
  log('Building the SPA checkout (Vite)…')
  try {
    const { build } = await import('vite')
    // 'error': viem's optional Node-only imports make Vite warn about browser externals.
    await build({ configFile: join(appRoot, 'vite.config.ts'), logLevel: 'error' })
    return 'built'
  } catch (error) {
    log(`SPA build failed: ${error instanceof Error ? error.message : error}`)
    return 'failed'
  }
}
