import { existsSync, readdirSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { findCycle, importGraph } from './importGraph.js'

// No import cycle in any package's src/ (type-only and dynamic imports count): each module can be
// read after the ones it needs, and a folder's concept does not lean on the module that uses it.
// Core's folders also stack in layers that only import downwards: no arrow back up.

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

// Core's folders in one-way layers: each imports within itself and from the layers below it,
// never up and never sideways (two folders of one layer know nothing of each other).
const coreLayers: Record<string, number> = {
  exports: 0,
  checkout: 1,
  actions: 2,
  'createPaySessionConfig.ts': 3,
  api: 4,
  chain: 4,
  utils: 5,
  errors: 6,
  registry: 7,
}

/** The imports of core's sources (paths under src/) that go up or sideways, or into an unknown folder. */
function layerViolations(graph: Map<string, string[]>, src: string): string[] {
  const folder = (file: string) => relative(src, file).split(sep)[0]!
  const found: string[] = []
  for (const [file, targets] of graph)
    for (const target of targets) {
      const from = coreLayers[folder(file)]
      const to = coreLayers[folder(target)]
      const sideways = to === from && folder(file) !== folder(target)
      if (from === undefined || to === undefined || to < from || sideways)
        found.push(`${relative(src, file)} imports ${relative(src, target)}`)
    }
  return found
}

test('the layer check finds an import up a layer or sideways, and a folder with no layer', () => {
  const src = join(root, 'packages/core/src')
  const at = (path: string) => join(src, path)
  expect(
    layerViolations(
      new Map([
        [at('actions/a.ts'), [at('api/b.ts'), at('utils/c.ts')]],
        [at('utils/c.ts'), [at('checkout/d.ts')]],
        [at('api/b.ts'), [at('chain/e.ts'), at('api/h.ts')]],
        [at('registry/i.ts'), [at('errors/j.ts')]],
        [at('newFolder/f.ts'), []],
        [at('exports/g.ts'), [at('newFolder/f.ts')]],
      ]),
      src,
    ),
  ).toEqual([
    'utils/c.ts imports checkout/d.ts',
    'api/b.ts imports chain/e.ts',
    'registry/i.ts imports errors/j.ts',
    'exports/g.ts imports newFolder/f.ts',
  ])
})

test("core's folders import only within themselves and from the layers below (exports → checkout → actions → createPaySessionConfig → api, chain → utils → errors → registry)", () => {
  const src = join(root, 'packages/core/src')
  const graph = importGraph(src)
  expect(graph.size).toBeGreaterThan(0)
  for (const file of graph.keys())
    expect(coreLayers[relative(src, file).split(sep)[0]!], relative(src, file)).toBeDefined()
  expect(layerViolations(graph, src)).toEqual([])
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
