import { readFileSync } from 'node:fs'
import { defineConfig } from 'vite'

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'))

// The script-tag build, in a folder per version (dist/cdn/<version>/) that a CDN serves as is and
// caches forever: one ES module that defines the element and paints the button, with the dialog
// (core, wagmi, viem, query-core) and the non-English catalogs as lazy chunks beside it.
// scripts/build-cdn.mjs also builds paysession-checkout.full.js (everything in one file, pinned by
// one integrity) into the same folder and writes sri.json.
export default defineConfig({
  // Library mode leaves it alone; query-core reads it at runtime and keeps dev-only code for it.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: `dist/cdn/${version}`,
    emptyOutDir: false,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    reportCompressedSize: false,
    lib: {
      entry: 'src/components/checkout/checkout.ts',
      formats: ['es'],
      fileName: () => 'paysession-checkout.js',
    },
    rolldownOptions: {
      // Lets the shared code (lit, the element) live in the first file instead of a common chunk.
      preserveEntrySignatures: 'allow-extension',
      output: { chunkFileNames: '[name]-[hash].js', minify: true },
    },
  },
})
