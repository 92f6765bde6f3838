import { builtinModules } from 'node:module'
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'
import { describe, expect, it } from 'vitest'

// The main entry and the relay and x402 subpaths run in Deno, Bun, Workers and browsers: bundled for a
// browser, nothing they pull in (viem included) may import a Node built-in. Only the Node
// adapter (`@paysession/server/node`) may.
const builtins = new Set(builtinModules)
const isBuiltin = (path: string) => path.startsWith('node:') || builtins.has(path.split('/')[0]!)

async function builtinsImportedBy(entry: string) {
  const found = new Set<string>()
  const record: Plugin = {
    name: 'record-node-builtins',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (!isBuiltin(args.path)) return undefined
        found.add(`${args.path} (from ${args.importer.replace(/.*node_modules\//, '')})`)
        return { path: args.path, external: true }
      })
    },
  }
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`../src/${entry}`, import.meta.url))],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    logLevel: 'silent',
    plugins: [record],
  })
  const code = result.outputFiles.map((f) => f.text).join('\n')
  return { found: [...found], code }
}

describe('the public entries bundle without Node built-ins', () => {
  it.each(['index.ts', 'relay.ts', 'x402.ts'])('%s imports no node: module', async (entry) => {
    const { found, code } = await builtinsImportedBy(entry)
    expect(found).toEqual([])
    expect(code).not.toMatch(/from\s*["']node:|import\(\s*["']node:|require\(\s*["']node:/)
    expect(code.length).toBeGreaterThan(1000)
  })

  it('webhook signatures use Web Crypto', async () => {
    expect((await builtinsImportedBy('index.ts')).code).toContain('crypto.subtle')
  })

  it('the Node adapter does, so the check would see one', async () => {
    const { found } = await builtinsImportedBy('node.ts')
    expect(found.some((f) => f.startsWith('node:fs'))).toBe(true)
  })
})
