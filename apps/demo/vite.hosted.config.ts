import { cpSync, mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import { makeSetupJournal, SETUP_JOURNAL_FILE } from './hosted/setupJournal.js'
import { buildWallet, walletFile } from './src/server/buildWallet.js'

// The hosted demo (apps/demo/hosted → dist/hosted): the whole shop as static files. The shop,
// the merchant console and the merchant's server side run in the page; the service and the chain
// load lazily in chunks of their own. Relative URLs only (`base: './'`), so it works under any
// sub-path of a static host. `npm run build:hosted` at the repo root builds it.
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const require = createRequire(import.meta.url)
const checkoutPkg = require.resolve('@paysession/checkout/package.json')
const checkoutVersion: string = require(checkoutPkg).version
const outDir = here('./dist/hosted')

export default defineConfig({
  root: here('./hosted'),
  base: './',
  logLevel: 'warn',
  define: { __CHECKOUT_VERSION__: JSON.stringify(checkoutVersion) },
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    chunkSizeWarningLimit: 2000,
    // Which file is the first load and which are lazy (bench/hosted.ts reads it).
    manifest: true,
  },
  plugins: [
    {
      name: 'paysession-hosted-static',
      // The real script-tag build of @paysession/checkout, the demo's own static files and the
      // Sandbox Wallet, copied as they are: the page loads them by relative URL.
      async writeBundle() {
        cpSync(
          join(dirname(checkoutPkg), 'dist', 'cdn', checkoutVersion),
          join(outDir, 'cdn', checkoutVersion),
          { recursive: true },
        )
        mkdirSync(join(outDir, 'assets'), { recursive: true })
        for (const file of ['styles.css', 'favicon.svg'])
          cpSync(here(`./public/${file}`), join(outDir, 'assets', file))
        // The Sandbox Wallet, built from apps/demo/wallet as the Node demo serves it.
        await buildWallet(here('.'))
        cpSync(walletFile(here('.')), join(outDir, 'assets', 'sandbox-wallet.js'))
        // A new chain's first start, made once here for every first visit (hosted/setupJournal.ts).
        writeFileSync(join(outDir, SETUP_JOURNAL_FILE), JSON.stringify(await makeSetupJournal()))
        // GitHub Pages: serve the folder as it is, without a Jekyll pass.
        writeFileSync(join(outDir, '.nojekyll'), '')
      },
      closeBundle() {
        console.log(
          'The hosted demo is in apps/demo/dist/hosted: serve it with any static file server, under any path.',
        )
      },
    },
  ],
})
