import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

// The widget's layers (scripts/test/imports.test.ts checks that no package, this one included,
// has an import cycle): the element uses its controllers, the controllers use core, and nothing
// imports back up. And each layer
// talks only to the next: views (components/, gasless/) import core for types only, never assign
// a controller's or the element's fields, never reach core's checkout behind the controller; the
// controllers never import the element; the first file loads the checkout controller only through
// the dialog's chunk (so that the button carries no wallet code).

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../src')
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? files(join(dir, entry.name))
      : /\.tsx?$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  )

// Packages whose code the views must not run: the controllers (preview.controller.ts, the
// checkout controller) are the widget's only callers of core.
const engine = /^(@paysession\/(core|protocol)|@wagmi\/core|viem)(\/|$)/
const views = /^(components|gasless|paths)\//

/** Every `import`/`export … from` statement: its specifier and whether it brings only types. */
function statements(text: string) {
  return [
    ...text.matchAll(/\b(import|export)\s+(type\s+)?([^;'"]*?)\s*from\s+['"]([^'"]+)['"]/g),
  ].map((match) => {
    const names = match[3]!.match(/\{([^}]*)\}/)?.[1]
    const allTypes = names
      ?.split(',')
      .map((name) => name.trim())
      .filter(Boolean)
      .every((name) => name.startsWith('type '))
    return { specifier: match[4]!, typeOnly: Boolean(match[2]) || allTypes === true }
  })
}

/** Why a module (its path under src/, its text) breaks the widget's layers; empty when it does not. */
export function layerViolations(path: string, text: string): string[] {
  const found: string[] = []
  const inViews = views.test(path)
  for (const { specifier, typeOnly } of statements(text)) {
    if (inViews && engine.test(specifier) && !typeOnly)
      found.push(`${path}: a view imports ${specifier} (only the controllers call core)`)
    if (path.startsWith('controllers/') && specifier.includes('/components/'))
      found.push(
        `${path}: a controller imports the element (${specifier}); declare a host interface`,
      )
    if (
      path === 'components/checkout/checkout.component.ts' &&
      specifier.endsWith('/checkout.controller.js') &&
      !typeOnly
    )
      found.push(
        `${path}: the first file imports the checkout controller (load it with the dialog)`,
      )
  }
  if (inViews) {
    const assignment =
      /\b(ctl|controller|host|preview)\??\.([\w$]+)\s*(\+\+|--|(?:[-+*/%&|^]|\?\?|&&|\|\|)?=(?!=))/g
    for (const match of text.matchAll(assignment))
      found.push(`${path}: assigns ${match[1]}.${match[2]} (call a controller's method instead)`)
    for (const match of text.matchAll(/\b(ctl|controller)\??\.(checkout|config)\b/g))
      found.push(`${path}: reaches ${match[1]}.${match[2]}, core's side of the controller`)
  }
  return found
}

test('the layer check finds each kind of violation', () => {
  const view = 'components/checkout/checkout.dialog.ts'
  expect(layerViolations(view, "import { parseAmount } from '@paysession/core'")).toHaveLength(1)
  expect(
    layerViolations(view, "import { type CheckoutState, formatDecimal } from '@paysession/core'"),
  ).toHaveLength(1)
  expect(
    layerViolations('gasless/gasless.ts', "import { getBalance } from 'viem/actions'"),
  ).toHaveLength(1)
  expect(layerViolations(view, "import type { CheckoutState } from '@paysession/core'")).toEqual([])
  expect(layerViolations(view, "import { type CheckoutState } from '@paysession/core'")).toEqual([])
  expect(layerViolations(view, '() => { ctl.pickingWallet = true }')).toHaveLength(1)
  expect(layerViolations(view, '() => { ctl?.copied ??= text }')).toHaveLength(1)
  expect(layerViolations(view, 'host._preview = session')).toHaveLength(1)
  expect(layerViolations(view, 'this.preview.session = undefined')).toHaveLength(1)
  expect(layerViolations(view, 'if (ctl.pickingWallet === true) ctl.pickWallet()')).toEqual([])
  expect(layerViolations(view, '() => ctl.checkout?.pay()')).toHaveLength(1)
  expect(layerViolations(view, 'resolveSessionAssets(ctl.config!.registry, session)')).toHaveLength(
    1,
  )
  expect(
    layerViolations(
      'controllers/checkout.controller.ts',
      "import type { PaySessionCheckout } from '../components/checkout/checkout.component.js'",
    ),
  ).toHaveLength(1)
  expect(
    layerViolations(
      'components/checkout/checkout.component.ts',
      "import { CheckoutController } from '../../controllers/checkout.controller.js'",
    ),
  ).toHaveLength(1)
  // The controllers are core's callers: they may import it.
  expect(
    layerViolations(
      'controllers/checkout.controller.ts',
      "import { createCheckout } from '@paysession/core'",
    ),
  ).toEqual([])
})

test('packages/checkout/src keeps its layers: views → controllers → core', () => {
  const modules = files(src).map((file) => relative(src, file).split('\\').join('/'))
  expect(modules.filter((path) => views.test(path)).length).toBeGreaterThan(4)
  const found = modules.flatMap((path) =>
    layerViolations(path, readFileSync(join(src, path), 'utf8')),
  )
  expect(found).toEqual([])
})

// What loads when is decided in src/loads.ts (the first file's loads, the table) and
// src/loads.dialog.ts (the dialog's). Two kinds of `import()` are written elsewhere, as loads.ts
// says: each language's (generated into i18n/languages.ts) and a wallet kind's, registered by the
// kind's own entry so that an app bundles a kind only when it imports it.
const loaders = /^(loads\.ts|loads\.dialog\.ts)$/
const registered = /^(i18n\/languages\.ts|wallets\/kinds\.cdn\.ts|wallets\/[^/]+\/index\.ts)$/

/** The `import()` calls of a module's code (a comment or a `typeof import()` type is not a load). */
export const dynamicImports = (text: string) =>
  [...text.replace(/^\s*(\/\/|\/?\*).*$/gm, '').matchAll(/(?<!typeof\s*)\bimport\s*\(/g)].length

test('the lazy-load check counts loads, not types', () => {
  expect(dynamicImports("const a = () => import('./a.js')")).toBe(1)
  expect(dynamicImports('await import(/* @vite-ignore */ url)')).toBe(1)
  expect(dynamicImports("let f: typeof import('./a.js').f")).toBe(0)
  expect(dynamicImports("import { a } from './a.js'")).toBe(0)
  expect(dynamicImports('// where its `import()` is\n * an `import()` of its own')).toBe(0)
})

test('every lazy load of packages/checkout/src goes through the loader files', () => {
  const modules = files(src).map((file) => relative(src, file).split('\\').join('/'))
  const loads = (path: string) => dynamicImports(readFileSync(join(src, path), 'utf8'))
  expect(loads('loads.ts')).toBe(2)
  expect(loads('loads.dialog.ts')).toBe(3)
  const elsewhere = modules.filter(
    (path) => !loaders.test(path) && !registered.test(path) && loads(path) > 0,
  )
  expect(elsewhere).toEqual([])
})
