// Size budgets of the script-tag build (gzip, level 9), checked in CI:
// - the first file, which paints the button: at most 12 KB;
// - everything loaded for a complete payment (the first file, the session read and dialog chunks
//   and their static imports, plus the largest language file: a customer loads one, their own):
//   at most 97.6 KB, with every dependency as it ships
//   (test/modules.test.ts). What loads when, and how to see where bytes come from:
//   scripts/size-by-module.mjs and docs/checkout.md, Size;
// - the single-file build (paysession-checkout.full.js: every lazy part inside, the EIP-5792 and
//   gasless code (viem's signTypedData and readContract) and each language it speaks included,
//   since one integrity pins every byte): at most 140.2 KB. It has no WalletConnect (walletconnect.js), which
//   the chunked build fetches only for a checkout with `wallet-connect-project-id`: neither the
//   single file nor the complete payment may hold any of it.
import { readdirSync, readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { languageTags } from './languages.mjs'

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
const dir = new URL(`../dist/cdn/${version}/`, import.meta.url)
const entry = 'paysession-checkout.js'
const full = 'paysession-checkout.full.js'
const budgets = { first: 12 * 1024, payment: 97.6 * 1024, full: 140.2 * 1024 }

const read = (file) => readFileSync(new URL(file, dir), 'utf8')
const gzip = (file) => gzipSync(read(file), { level: 9 }).length
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`
const imports = (file, dynamic) => {
  const pattern = dynamic
    ? /import\(\s*["'`]\.\/([^"'`]+)["'`]\s*\)/g
    : /(?:from|import)\s*["'`]\.\/([^"'`]+)["'`]/g
  return [...read(file).matchAll(pattern)].map((m) => m[1])
}
const closure = (files) => {
  const seen = new Set()
  const visit = (file) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const next of imports(file, false)) visit(next)
  }
  files.forEach(visit)
  return seen
}

const files = readdirSync(dir).filter((file) => file.endsWith('.js'))
const first = closure([entry])
const lazy = imports(entry, true)
const dialog = lazy.find((file) => file.startsWith('checkout.dialog'))
if (!dialog) throw new Error('no dialog chunk imported lazily by the first file')
// Each language but English is a file of its own, <tag>.js, that the first file fetches by its
// tag; English's is a chunk the first file imports lazily, en-<hash>.js.
const catalogs = languageTags()
  .filter((tag) => tag !== 'en')
  .map((tag) => `${tag}.js`)
const missing = catalogs.filter((file) => !files.includes(file))
if (missing.length) throw new Error(`no language file ${missing.join(', ')}`)
const english = lazy.find((file) => file.startsWith('en-'))
if (!english) throw new Error('no English chunk imported lazily by the first file')
catalogs.push(english)
const reader = lazy.find((file) => file.startsWith('preview.read'))
if (!reader) throw new Error('no session read chunk imported lazily by the first file')
const locale = catalogs.reduce((max, file) => Math.max(max, gzip(file)), 0)
const payment = closure([entry, reader, dialog])
const firstSize = [...first].reduce((sum, file) => sum + gzip(file), 0)
const paymentSize = [...payment].reduce((sum, file) => sum + gzip(file), 0) + locale

console.log('file                                  raw        gzip')
for (const file of files.sort())
  console.log(
    `${file.padEnd(36)} ${kb(read(file).length).padStart(9)} ${kb(gzip(file)).padStart(9)}`,
  )
console.log(
  `\nfirst file (paints the button): ${kb(firstSize)} (budget ${kb(budgets.first)}): ${[...first].join(', ')}`,
)
const fullSize = gzip(full)
console.log(`single file (${full}): ${kb(fullSize)} (budget ${kb(budgets.full)})`)
console.log(
  `complete payment: ${kb(paymentSize)} (budget ${kb(budgets.payment)}): ${[...payment].join(', ')} + largest catalog ${kb(locale)}`,
)

for (const file of new Set(imports(dialog, true)))
  if (!payment.has(file)) console.log(`lazy, loaded only when used: ${file} ${kb(gzip(file))}`)

const walletConnect = 'walletconnect.js'
console.log(
  `lazy, loaded only with wallet-connect-project-id: ${walletConnect} ${kb(gzip(walletConnect))}`,
)

let failed = false
// The relay protocol's session proposal: in WalletConnect's sign client, nowhere else.
const walletConnectMark = 'wc_sessionPropose'
for (const file of [full, ...payment])
  if (read(file).includes(walletConnectMark))
    failed = console.error(`✗ ${file} holds WalletConnect's code`) ?? true
if (!read(walletConnect).includes(walletConnectMark))
  failed = console.error(`✗ ${walletConnect} has no WalletConnect sign client`) ?? true
for (const [name, size, key] of [
  ['first file', firstSize, 'first'],
  ['complete payment', paymentSize, 'payment'],
  ['single file', fullSize, 'full'],
])
  if (size > budgets[key])
    failed =
      console.error(
        `✗ ${name} over its budget ${kb(budgets[key])} by ${kb(size - budgets[key])}`,
      ) ?? true
if (failed) process.exit(1)
console.log('✓ within budget')
