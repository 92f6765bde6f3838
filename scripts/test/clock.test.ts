import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

// Time has one home: protocol's `Clock` (packages/protocol/src/timing.ts). Every other source reads
// "now" from a clock its caller can pass, so a test moves time instead of waiting for it.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const clockModule = join('packages', 'protocol', 'src', 'timing.ts')

/** The lines of `text` that read the wall clock directly: `Date.now()`, or `new Date()` for now. */
function wallClockReads(text: string): number[] {
  return text
    .split('\n')
    .flatMap((line, index) => (/\bDate\.now\b|\bnew Date\(\s*\)/.test(line) ? [index + 1] : []))
}

const sources = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) ? [path] : []
  })

test('the check finds a read of the wall clock', () => {
  expect(wallClockReads('const a = 1\nconst t = Date.now() + 5\nconst d = new Date()\n')).toEqual([
    2, 3,
  ])
  expect(wallClockReads('const now = Date.now\nnew Date(ms)\nclock.now()\n')).toEqual([1])
})

test('no package reads the wall clock outside the clock module', () => {
  const packages = readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join('packages', entry.name, 'src'))
    .filter((dir) => {
      try {
        return readdirSync(join(root, dir)).length > 0
      } catch {
        return false
      }
    })
  expect(packages).toContain(join('packages', 'browser-chain', 'src'))
  expect(packages).toContain(join('packages', 'wallet-stacks', 'src'))
  const found = packages
    .flatMap(sources)
    .filter((file) => file !== clockModule)
    .flatMap((file) =>
      wallClockReads(readFileSync(join(root, file), 'utf8')).map((line) => `${file}:${line}`),
    )
  expect(found, 'read "now" from a Clock (protocol\'s systemClock by default)').toEqual([])
  expect(wallClockReads(readFileSync(join(root, clockModule), 'utf8')).length).toBeGreaterThan(0)
})
