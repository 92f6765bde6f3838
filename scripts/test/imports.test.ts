import { existsSync, readdirSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { findCycle, importGraph } from './importGraph.js'

// No import cycle in any package's src/ (type-only and dynamic imports count): each module can be
// read after the ones it needs, and a folder's concept does not lean on the module that uses it.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const sources = ['packages', 'apps'].flatMap((group) =>
  readdirSync(join(root, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    // The demo's Sandbox Wallet is a source folder of its own (apps/demo/wallet).
    .flatMap((entry) => [join(group, entry.name, 'src'), join(group, entry.name, 'wallet')])
    .filter((dir) => {
      try {
        return readdirSync(join(root, dir)).length > 0
      } catch {
        return false
      }
    }),
)

test('the check finds a cycle when there is one, type-only imports included', () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a']],
    ['d', ['a']],
  ])
  expect(findCycle(graph)).toEqual(['a', 'b', 'c', 'a'])
  expect(
    findCycle(
      new Map([
        ['a', ['b']],
        ['b', []],
      ]),
    ),
  ).toBeUndefined()
})

test('every package is checked', () => {
  for (const name of ['protocol', 'core', 'checkout', 'server', 'sandbox', 'browser-chain'])
    expect(sources).toContain(join('packages', name, 'src'))
  expect(sources).toContain(join('apps', 'demo', 'src'))
  expect(sources).toContain(join('apps', 'demo', 'wallet'))
})

describe.each(sources)('%s', (dir) => {
  test('has no import cycle, and every relative import resolves', () => {
    const graph = importGraph(join(root, dir))
    expect(graph.size).toBeGreaterThan(0)
    // An import into another checked folder (the demo's pages use the wallet's config type) is
    // that folder's to check; it must still exist.
    const resolves = (target: string) =>
      graph.has(target) || (!target.startsWith(join(root, dir)) && existsSync(target))
    for (const [file, targets] of graph)
      for (const target of targets)
        expect(resolves(target), `${relative(root, file)} imports ${relative(root, target)}`).toBe(
          true,
        )
    const cycle = findCycle(graph)
    expect(cycle?.map((file) => relative(root, file))).toBeUndefined()
  })
})
