import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build, type Rolldown } from 'vite'
import { expect, test } from 'vitest'
// @ts-expect-error: a build script in plain JavaScript, without types
import { dependencyModules } from '../scripts/dependencyModules.mjs'

// The script-tag build (dist/cdn, scripts/build-cdn.mjs) runs the same dependency code as an app
// that bundles the npm build (dist/): no stand-in, alias or patched copy of a dependency's module.
// Each side lists the dependency modules that put code in its bundle; the npm side is bundled here
// as a plain app would, with no plugin, and the same one choice the script-tag build makes about
// dependencies (AppKit, which the connector never loads, stays out: vite.config.ts).

const root = fileURLToPath(new URL('..', import.meta.url))
// The builds by name: `chunked`, `singleFile`, and one per wallet kind (`walletconnect`).
const cdn = JSON.parse(readFileSync(`${root}dist/cdn.modules.json`, 'utf8')) as Record<
  string,
  string[]
>

async function bundleNpmBuild(entry: string, split: boolean): Promise<string[]> {
  // A production build resolves packages' `production` exports (vitest runs with NODE_ENV=test).
  const nodeEnv = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  const result = await build({
    configFile: false,
    root,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      write: false,
      target: 'es2022',
      lib: { entry: `${root}${entry}`, formats: ['es'] },
      rolldownOptions: {
        external: ['@reown/appkit/core'],
        output: split ? {} : { codeSplitting: false },
      },
    },
  }).finally(() => {
    process.env.NODE_ENV = nodeEnv
  })
  const [output] = [result].flat() as Rolldown.RolldownOutput[]
  return dependencyModules(output!.output)
}

const element = 'dist/components/checkout/checkout.js'
const payment = [
  'viem/',
  '@wagmi/core/',
  '@tanstack/query-core/',
  'lit-html/',
  'packages/core/dist/',
]
test.each([
  ['the chunked script-tag build', 'chunked', element, true, payment],
  ['the single file', 'singleFile', element, false, payment],
  [
    'walletconnect.js',
    'walletconnect',
    'dist/wallets/walletconnect/connector.js',
    false,
    ['@walletconnect/sign-client/', '@wagmi/connectors/'],
  ],
] as const)(
  '%s bundles the dependency modules the npm build does',
  async (_, build, entry, split, names) => {
    const modules = await bundleNpmBuild(entry, split)
    // Enough of each dependency to be the real thing, not a list emptied by a broken build.
    for (const name of names)
      expect(
        modules.some((id) => id.startsWith(name)),
        name,
      ).toBe(true)
    expect(cdn[build]).toEqual(modules)
  },
)
