import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

// The widget's modules form no import cycle: the element uses its controller, the controller
// uses core, and nothing imports back up (type-only and dynamic imports count too).

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../src')
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? files(join(dir, entry.name))
      : /\.tsx?$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  )

/** Relative specifiers of every `import … from`, `export … from`, `import()` and `typeof import()`. */
export function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const found = [
    ...text.matchAll(/\bfrom\s+['"](\.[^'"]+)['"]/g),
    ...text.matchAll(/\bimport\s*\(\s*['"](\.[^'"]+)['"]\s*\)/g),
  ].map((match) => match[1]!)
  return found.map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, '.ts')))
}

export function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node]
    state.set(node, 'open')
    path.push(node)
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next)
      if (cycle) return cycle
    }
    path.pop()
    state.set(node, 'done')
  }
  for (const node of graph.keys()) {
    const cycle = visit(node)
    if (cycle) return cycle
  }
}

test('the check finds a cycle when there is one', () => {
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

test('no import cycle in packages/checkout/src', () => {
  const graph = new Map(files(src).map((file) => [file, importsOf(file)]))
  expect(graph.size).toBeGreaterThan(20)
  for (const targets of graph.values())
    for (const target of targets) expect(graph.has(target), target).toBe(true)
  const cycle = findCycle(graph)
  expect(cycle?.map((file) => relative(src, file))).toBeUndefined()
})
