// Writes dist/cdn/sri.json: the Subresource Integrity hash (sha384) of every file of the script-tag build.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'

const dir = new URL('../dist/cdn/', import.meta.url)
const files = readdirSync(dir).filter((file) => file.endsWith('.js'))
const sri = Object.fromEntries(
  files.map((file) => [
    file,
    `sha384-${createHash('sha384')
      .update(readFileSync(new URL(file, dir)))
      .digest('base64')}`,
  ]),
)
writeFileSync(new URL('sri.json', dir), `${JSON.stringify(sri, null, 2)}\n`)
console.log(`sri.json: ${files.length} files`)
