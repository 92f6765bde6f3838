import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { minifyHTMLLiterals } from 'minify-literals'
import { defineConfig, type Plugin, runnerImport } from 'vite'
import {
  catalogModule,
  languagesModule,
  languageTags,
  singleFileLanguages,
} from './scripts/languages.mjs'

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'))

// The script-tag build, in a folder per version (dist/cdn/<version>/) that a CDN serves as is and
// caches forever: one ES module that defines the element and paints the button, with the dialog
// (core, wagmi, viem, query-core) and one chunk per language as lazy chunks beside it.
// scripts/build-cdn.mjs also builds paysession-checkout.full.js (everything in one file, pinned by
// one integrity) into the same folder and writes sri.json.

// Lit ships its html`` and css`` templates as written: minify-literals squeezes them (white space,
// comments) in the element's own modules; dependencies are bundled as they ship.
const minifyTemplates: Plugin = {
  name: 'paysession:minify-templates',
  async transform(code, id) {
    if (!/[\\/]checkout[\\/]src[\\/].*\.ts$/.test(id)) return
    return (await minifyHTMLLiterals(code, { fileName: id })) ?? undefined
  },
}

// The wallet kinds the checkout bundles (src/wallets/kinds.ts): in the chunked build the
// controller's kinds.ts is kinds.cdn.ts, which fetches `<kind>.js` (mode 'wallet', each built
// apart by scripts/build-cdn.mjs) when a checkout turns the kind on. The single-file build (mode
// 'single-file') keeps kinds.ts without loaders: a kind's code would be in the one file every
// page loads, and so would the pairing view (our own), which only such a connection shows.
const wallets = (mode: string): Plugin => ({
  name: 'paysession:wallets',
  enforce: 'pre',
  resolveId(source, importer) {
    if (mode === 'single-file' && /[\\/]steps[\\/]pairing\.js$/.test(source))
      return '\0paysession:pairing-left-out'
    if (mode !== 'production' || importer?.endsWith('kinds.cdn.ts')) return
    if (/[\\/]wallets[\\/]kinds\.js$/.test(source))
      return fileURLToPath(new URL('./src/wallets/kinds.cdn.ts', import.meta.url))
  },
  load(id) {
    if (id === '\0paysession:pairing-left-out') return 'export function pairing() {}'
  },
})

// The languages' list (src/i18n/languages.ts, generated) in the script-tag build's form
// (scripts/languages.mjs, languagesModule): the single file holds every language it speaks, so it
// speaks fewer than the chunked build (singleFileLanguages), which loads only the customer's and
// fetches it by its tag.
const builtLanguages = (mode: string): Plugin => ({
  name: 'paysession:built-languages',
  enforce: 'pre',
  resolveId(source, importer) {
    // The list (i18n/catalogs.ts) and the loads (loads.ts) both read it.
    if (
      /^\.\/(i18n\/)?languages\.js$/.test(source) &&
      /\/src\/(i18n\/catalogs|loads)\.ts$/.test(importer ?? '')
    )
      return fileURLToPath(new URL('./src/i18n/languages.built.ts', import.meta.url))
  },
  load(id) {
    if (!id.endsWith('/src/i18n/languages.built.ts')) return
    return mode === 'single-file'
      ? languagesModule(singleFileLanguages, { built: true })
      : languagesModule(languageTags(), { byUrl: true })
  },
})

// In the single file, each language file but English's is built as its strings in the order of
// English's sorted keys (scripts/languages.mjs, catalogModule): its words, not the keys again. The
// chunked build's language files keep their keys: a customer loads one, and English's keys stay
// out of the first file.
const catalogFile = /[\\/]src[\\/]i18n[\\/]([\w-]+)\.ts$/
const evaluate = async (file: string) =>
  ((await runnerImport(file, { configFile: false })).module as { catalog: object }).catalog
let english: Promise<object> | undefined
const builtCatalogs = (mode: string): Plugin => ({
  name: 'paysession:built-catalogs',
  enforce: 'pre',
  async load(id) {
    const tag = catalogFile.exec(id)?.[1]
    if (mode !== 'single-file' || !tag || tag === 'en' || !languageTags().includes(tag)) return
    english ??= evaluate(fileURLToPath(new URL('./src/i18n/en.ts', import.meta.url)))
    return catalogModule(await evaluate(id), await english)
  },
})

export default defineConfig(({ mode }) => ({
  plugins: [builtCatalogs(mode), builtLanguages(mode), minifyTemplates, wallets(mode)],
  // Library mode leaves it alone; query-core reads it at runtime and keeps dev-only code for it.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: `dist/cdn/${version}`,
    emptyOutDir: false,
    target: 'es2022',
    // Rolldown's own minifier (output.minify below) runs first, then terser over its output: each
    // finds what the other leaves, about 0.8 KB gzip off each budgeted file.
    minify: 'terser',
    // ES modules (top-level names are the module's own) and a second pass over what the first freed.
    terserOptions: { module: true, compress: { passes: 2 } },
    sourcemap: false,
    reportCompressedSize: false,
    lib: {
      // The chunked build's languages are entries of their own, named by their tags without a hash
      // (the versioned CDN path busts caches): the first file fetches each by its tag
      // (languagesModule, byUrl), so no import of it tells the bundler to build it. English's is
      // an ordinary chunk: it shares the button's words with the first file.
      entry: {
        'paysession-checkout': 'src/components/checkout/checkout.ts',
        ...(mode === 'production'
          ? Object.fromEntries(
              languageTags()
                .filter((tag) => tag !== 'en')
                .map((tag) => [tag, `src/i18n/${tag}.ts`]),
            )
          : {}),
      },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
    rolldownOptions: {
      // AppKit, WalletConnect's modal: the provider imports it only with `showQrModal`, which the
      // connector turns off (it draws its own QR code), so no build bundles it.
      external: ['@reown/appkit/core'],
      // Lets the shared code (lit, the element) live in the first file instead of a common chunk.
      preserveEntrySignatures: 'allow-extension',
      output: {
        minify: true,
      },
    },
  },
}))
