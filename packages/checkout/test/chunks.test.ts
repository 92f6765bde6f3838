import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

// What a click on "Pay" waits for in the script-tag build (dist/cdn, scripts/build-cdn.mjs): the
// session read and the dialog each arrive in one request. A lazy chunk that imports a further
// chunk is fetched, parsed, and only then asks for the next one: on a phone each such step is a
// network round trip between the click and the wallet's prompt (bench/phone.ts measures it).

const { version } = JSON.parse(
  readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8'),
)
const dir = fileURLToPath(new URL(`../dist/cdn/${version}/`, import.meta.url))
const chunk = (prefix: string) => {
  const file = readdirSync(dir).find((name) => name.startsWith(`${prefix}-`))
  if (!file) throw new Error(`no ${prefix} chunk in ${dir}`)
  return file
}
/** The files a chunk imports statically (each fetched once the chunk itself has arrived). */
const staticImports = (file: string) =>
  [...readFileSync(`${dir}${file}`, 'utf8').matchAll(/(?:from|import)\s*["'`]\.\/([^"'`]+)["'`]/g)]
    .map((match) => match[1]!)
    .sort()

test('the session read imports nothing the first file has not brought', () => {
  expect(staticImports(chunk('preview.read'))).toEqual(['paysession-checkout.js'])
})

test('the dialog imports nothing but the files loaded before it', () => {
  const before = ['paysession-checkout.js', chunk('preview.read')]
  expect(staticImports(chunk('checkout.dialog')).filter((file) => !before.includes(file))).toEqual(
    [],
  )
})
