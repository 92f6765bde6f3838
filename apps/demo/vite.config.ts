import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

// The SPA checkout: apps/demo/spa, built to dist/spa and served by the demo under /spa/.
export default defineConfig({
  root: fileURLToPath(new URL('./spa', import.meta.url)),
  base: '/spa/',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('./dist/spa', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
  },
})
