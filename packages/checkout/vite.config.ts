import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin } from 'vite'

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'))

// The script-tag build, in a folder per version (dist/cdn/<version>/) that a CDN serves as is and
// caches forever: one ES module that defines the element and paints the button, with the dialog
// (core, wagmi, viem, query-core) and one chunk per language as lazy chunks beside it.
// scripts/build-cdn.mjs also builds paysession-checkout.full.js (everything in one file, pinned by
// one integrity) into the same folder and writes sri.json.

// Lit ships css`` as written: squeeze its comments and whitespace in the script-tag build.
const minifyLitCss = (): Plugin => ({
  name: 'minify-lit-css',
  transform(code, id) {
    if (!id.endsWith('.styles.ts')) return
    return code.replace(
      /css`([^`]*)`/g,
      (_, body: string) =>
        `css\`${body
          .replace(/\/\*[\s\S]*?\*\//g, '')
          .replace(/\s+/g, ' ')
          .replace(/ ?([{};,]) ?/g, '$1')
          .replace(/: /g, ':')
          .replace(/;}/g, '}')
          .replace(/([ :,(-])0\.(\d)/g, '$1.$2')
          .replace(/(\[[\w-]+~?=)'([\w-]+)'\]/g, '$1$2]')
          .trim()}\``,
    )
  },
})

// viem loads secp256k1 with a dynamic import inside recoverPublicKey, which only the EIP-5792
// chunk's sendCalls graph reaches (and never runs: the wallet signs). A dynamic chunk inside a
// dynamic chunk makes rolldown split the shared code out of the first file and the dialog into
// extra common chunks, so the import is made static: it stays in the lazy sendWithCalls chunk.
const staticSecp256k1: Plugin = {
  name: 'paysession:static-secp256k1',
  transform(code, id) {
    if (!/viem[\\/]_esm[\\/]utils[\\/]signature[\\/]recoverPublicKey\.js$/.test(id)) return
    const dynamic = "const { secp256k1 } = await import('@noble/curves/secp256k1');"
    if (!code.includes(dynamic))
      throw new Error('viem changed recoverPublicKey: revisit this plugin')
    return `import { secp256k1 } from '@noble/curves/secp256k1';\n${code.replace(dynamic, '')}`
  },
}

// WalletConnect (wallet-connect-project-id): in the chunked build the controller's loader is
// loader.cdn.ts, which fetches walletconnect.js (mode 'walletconnect', built apart by
// scripts/build-cdn.mjs) when a checkout has a project id. The single-file build (mode
// 'single-file') keeps the empty loader: WalletConnect's 130 KB would be in the one file every
// page loads. Its AppKit modal is never used (the checkout draws its own QR code), so the
// provider's dynamic import of it resolves to nothing.
const walletConnect = (mode: string): Plugin => ({
  name: 'paysession:walletconnect',
  enforce: 'pre',
  resolveId(source, importer) {
    if (source === '@reown/appkit/core') return '\0appkit-left-out'
    // Nor does the single file need the pairing QR code's view and its ten languages.
    if (mode === 'single-file' && /[\\/]walletconnect[\\/]pairing\.js$/.test(source))
      return '\0pairing-left-out'
    if (mode !== 'production' || importer?.endsWith('loader.cdn.ts')) return
    if (/[\\/]walletconnect[\\/]loader\.js$/.test(source))
      return fileURLToPath(new URL('./src/walletconnect/loader.cdn.ts', import.meta.url))
  },
  load(id) {
    if (id === '\0pairing-left-out') return 'export function pairing() {}'
    if (id === '\0appkit-left-out')
      return "export function createAppKit() { throw new Error('AppKit is not in this build') }"
  },
})

export default defineConfig(({ mode }) => ({
  plugins: [staticSecp256k1, minifyLitCss(), walletConnect(mode)],
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
      output: {
        // A language's file is its locale (de.js), without a hash: the first file names all ten,
        // and ten hashes would cost it 70 bytes. The versioned CDN path already busts caches.
        chunkFileNames: (chunk) =>
          chunk.facadeModuleId?.includes('/src/i18n/') ? '[name].js' : '[name]-[hash].js',
        minify: true,
      },
    },
  },
}))
