import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { minify as uglify } from 'uglify-js'
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

// Lit ships html`` as written too: in the element's templates, each run of white space holding a
// line break becomes one space, which HTML renders the same (no <pre> or <textarea> here).
const squeezeLitHtml: Plugin = {
  name: 'paysession:squeeze-lit-html',
  transform(code, id) {
    if (!/[\\/]checkout[\\/]src[\\/].*\.ts$/.test(id)) return
    const source = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, true)
    const edits: { start: number; end: number; text: string }[] = []
    const visit = (node: ts.Node) => {
      if (ts.isTaggedTemplateExpression(node) && /^(html|svg)$/.test(node.tag.getText(source))) {
        const { template } = node
        const parts = ts.isNoSubstitutionTemplateLiteral(template)
          ? [template]
          : [template.head, ...template.templateSpans.map((span) => span.literal)]
        for (const part of parts) {
          // The text between ` or } and ${ or `.
          const start = part.getStart(source) + 1
          const end =
            part.getEnd() -
            (ts.isTemplateTail(part) || ts.isNoSubstitutionTemplateLiteral(part) ? 1 : 2)
          const text = code.slice(start, end).replace(/\s*\n\s*/g, ' ')
          if (text !== code.slice(start, end)) edits.push({ start, end, text })
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
    return edits
      .sort((a, b) => b.start - a.start)
      .reduce((out, edit) => out.slice(0, edit.start) + edit.text + out.slice(edit.end), code)
  },
}

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

// Smaller stand-ins, in this build only, for dependency code the payment carries but does not
// need in full: noble's Keccak (cdn/keccak256.ts), eventemitter3 under wagmi's emitter
// (cdn/eventEmitter.ts), query-core's mutation cache and infinite queries (cdn/queryCore.ts).
// Together 4.4 KB gzip of the complete payment. Each is checked against what its users call, so
// a dependency update that needs more fails this build instead of failing in a browser.
const cdn = (file: string) => fileURLToPath(new URL(`./cdn/${file}`, import.meta.url))
const queryCore = /@tanstack[\\/]query-core[\\/]build[\\/]modern[\\/]/
const standIns: Plugin = {
  name: 'paysession:stand-ins',
  enforce: 'pre',
  resolveId(source, importer) {
    if (source === '@noble/hashes/sha3') return cdn('keccak256.ts')
    if (
      source === 'eventemitter3' &&
      /@wagmi[\\/]core[\\/].*createEmitter\.js$/.test(importer ?? '')
    )
      return cdn('eventEmitter.ts')
    if (
      queryCore.test(importer ?? '') &&
      /^\.\/(mutationCache|infiniteQueryBehavior)\.js$/.test(source)
    )
      return cdn('queryCore.ts')
  },
  transform(code, id) {
    const calls = (pattern: RegExp) => new Set([...code.matchAll(pattern)].map((m) => m[1]))
    const check = (used: Set<string | undefined>, known: string[], what: string) => {
      for (const method of used)
        if (!known.includes(method!))
          throw new Error(`${what} now calls ${method}: revisit cdn/ and this plugin`)
    }
    if (/@wagmi[\\/]core[\\/].*createEmitter\.js$/.test(id))
      check(calls(/_emitter\.(\w+)/g), ['on', 'once', 'off', 'emit', 'listenerCount'], 'wagmi')
    if (queryCore.test(id) && id.endsWith('queryClient.js'))
      check(
        calls(/#mutationCache\.(\w+)/g),
        ['findAll', 'resumePausedMutations', 'clear'],
        'QueryClient',
      )
  },
}

// After rolldown's minifier, uglify-js over each chunk once more: 0.4 KB gzip less of the
// payment (its second compress pass and its printing gzip better; neither alone does as well).
// Export and import names between chunks are kept (module mode).
const secondMinify: Plugin = {
  name: 'paysession:second-minify',
  generateBundle(_, bundle, isWrite) {
    if (!isWrite) return // a build in memory (build-cdn.mjs's probe) only reads which modules go where
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue
      const result = uglify(chunk.code, { module: true, compress: { passes: 2 }, mangle: true })
      if (result.error) throw result.error
      chunk.code = result.code
    }
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

// The stand-ins and the second minifier serve the checkout's own bundles; walletconnect.js (mode
// 'walletconnect') is built as WalletConnect ships, since its sign client uses more of noble.
export default defineConfig(({ mode }) => ({
  plugins: [
    ...(mode === 'walletconnect' ? [] : [standIns]),
    staticSecp256k1,
    minifyLitCss(),
    squeezeLitHtml,
    walletConnect(mode),
    ...(mode === 'walletconnect' ? [] : [secondMinify]),
  ],
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
      // The second minifier is most of the build's time, as expected: no timing warning.
      checks: { bundlerTimings: false },
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
