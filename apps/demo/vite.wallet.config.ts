import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

// The Sandbox Wallet (apps/demo/wallet) as one classic script, dist/wallet/sandbox-wallet.js: a
// page loads it before any module, so it announces itself before the checkout looks for wallets.
// The demo builds it on start when it is stale (src/server/buildWallet.ts) and serves it as
// /assets/sandbox-wallet.js; the hosted build copies it in.
export default defineConfig({
  logLevel: 'warn',
  // The demo's public/ folder is served as it is; none of it belongs in this build.
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('./dist/wallet', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    lib: {
      entry: fileURLToPath(new URL('./wallet/index.ts', import.meta.url)),
      formats: ['iife'],
      name: 'SandboxWallet',
      fileName: () => 'sandbox-wallet.js',
    },
  },
})
