import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { checkTarball } from '../check-packages.mjs'

const license = readFileSync(new URL('../../LICENSE', import.meta.url), 'utf8')
const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** An unpacked tarball: `files` maps a path inside package/ to its content. */
function tarball(files: Record<string, string | object>) {
  const dir = mkdtempSync(join(tmpdir(), 'check-packages-'))
  dirs.push(dir)
  for (const [path, content] of Object.entries(files)) {
    const file = join(dir, 'package', path)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content))
  }
  return dir
}

const manifest = {
  name: '@paysession/example',
  version: '1.2.3',
  license: 'MIT',
  repository: { type: 'git', url: 'git+https://example.com/x.git' },
  homepage: 'https://example.com',
  engines: { node: '>=20' },
  exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
  dependencies: { lit: '^3.3.3' },
}

test('a tarball with what a consumer needs passes', () => {
  const dir = tarball({
    'package.json': manifest,
    'README.md': '# x',
    LICENSE: license,
    'dist/index.js': '',
    'dist/index.d.ts': '',
    'dist/index.js.map': { version: 3, sources: ['../src/index.ts'], mappings: '' },
    'src/index.ts': '',
    'dist/cdn/1.2.3/a.js': 'x',
    'dist/cdn/1.2.3/sri.json': {
      'a.js': 'sha384-11LCxR+6DimqGQVwqdQlPkQHegWNMpf6OlYw1b0BJiL5fCisrtMTtcg7uZDKp9qF',
    },
  })
  expect(checkTarball(dir).problems).toEqual([])
})

test('every way a tarball falls short is named', () => {
  const dir = tarball({
    'package.json': {
      ...manifest,
      homepage: undefined,
      dependencies: { '@paysession/core': 'workspace:^', lit: '3.3.3' },
    },
    LICENSE: 'Copyright nobody',
    'dist/index.js': '',
    'dist/index.js.map': { version: 3, sources: ['../src/index.ts'], mappings: '' },
    'dist/index.test.js': '',
    'dist/cdn/a.js': 'x',
  })
  expect(checkTarball(dir).problems).toEqual(
    expect.arrayContaining([
      'missing README.md',
      'LICENSE differs from the repository LICENSE',
      'ships a file no consumer needs: dist/index.test.js',
      'no "homepage"',
      'points at a missing file: ./dist/index.d.ts',
      '@paysession/core: unreplaced workspace:^',
      'lit: pinned to 3.3.3, which cannot dedupe',
      'dist/index.js.map: source ../src/index.ts is neither shipped nor inlined',
      'dist/cdn/a.js is outside dist/cdn/1.2.3/',
      'dist/cdn/1.2.3/sri.json has no correct hash for dist/cdn/a.js',
    ]),
  )
})

test('an optional peer is loaded only by the entries that need it', () => {
  const dir = tarball({
    'package.json': {
      ...manifest,
      name: '@paysession/server',
      exports: {
        './relay': { types: './dist/relay.d.ts', default: './dist/relay.js' },
        './x402': { types: './dist/x402.d.ts', default: './dist/x402.js' },
      },
      peerDependencies: { '@x402/core': '^2.27.0', viem: '^2.40.0' },
      peerDependenciesMeta: { '@x402/core': { optional: true }, viem: { optional: true } },
    },
    'README.md': '# x',
    LICENSE: license,
    'dist/relay.js': "import { parse } from './relay/parse.js'\nimport 'viem/accounts'\n",
    'dist/relay.d.ts': "export type { Payment } from './relay/parse.js'\n",
    'dist/relay/parse.js': "import { getAddress } from 'viem'\n",
    'dist/relay/parse.d.ts':
      "import type {\n  PaymentPayload,\n} from '@x402/core/types';\nexport type Payment = PaymentPayload\n",
    'dist/x402.js': "export * from './relay/parse.js'\nimport { x } from '@x402/core/http'\n",
    'dist/x402.d.ts': "export * from './relay/parse.js'\n",
  })
  expect(checkTarball(dir).problems).toEqual([
    './relay loads the optional peer @x402/core (./dist/relay.d.ts)',
  ])
})
