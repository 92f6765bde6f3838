import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

// The import graph of a package's sources, for the import-cycle checks (scripts/test/imports.test.ts
// for every package, packages/checkout/test/imports.test.ts for the widget's layers too). Every
// relative `import … from`, `export … from`, `import()` and `typeof import()` counts, type-only
// ones too: a cycle of types is still two modules that cannot be read one after the other.

/** The TypeScript sources under `dir`, tests excluded. */
export const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : /\.(ts|tsx|mts)$/.test(entry.name) && !/\.(test|spec)\.tsx?$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  )

/** The files a module imports, by relative specifier (`./x.js` is `./x.ts` in the sources). */
export function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const found = [
    ...text.matchAll(/\bfrom\s+['"](\.[^'"]+)['"]/g),
    ...text.matchAll(/\bimport\s*\(\s*['"](\.[^'"]+)['"]\s*\)/g),
  ].map((match) => match[1]!)
  return found.map((specifier) => {
    const path = resolve(dirname(file), specifier)
    const candidates = [
      path.replace(/\.js$/, '.ts'),
      path.replace(/\.js$/, '.tsx'),
      path.replace(/\.mjs$/, '.mts'),
      path,
    ]
    return candidates.find((candidate) => existsSync(candidate)) ?? candidates[0]!
  })
}

/** A cycle of the graph (its nodes, the first repeated at the end), or undefined. */
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

/** The import graph of the sources under `dir`. */
export const importGraph = (dir: string): Map<string, string[]> =>
  new Map(sourceFiles(dir).map((file) => [file, importsOf(file)]))
