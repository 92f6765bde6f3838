// `cem analyze`: writes custom-elements.json (attributes, properties, methods, events, parts, CSS properties).

import { readFileSync } from 'node:fs'
import { posix } from 'node:path'

// The manifest names the modules a consumer imports: the shipped `dist/*.js`, not the sources.
const toShipped = (value) =>
  typeof value === 'string' && /^\/?src\/.+\.[jt]s$/.test(value)
    ? value.replace(/^\/?src\//, 'dist/').replace(/\.ts$/, '.js')
    : value
// A re-export (`export { x } from '../../i18n/x.js'`) is recorded relative to its module: resolve it.
const resolveReexports = (module) => {
  for (const entry of module.exports ?? []) {
    const target = entry.declaration?.module
    if (typeof target === 'string' && target.startsWith('.'))
      entry.declaration.module = posix
        .join(posix.dirname(module.path), target)
        .replace(/\.js$/, '.ts')
  }
}
const rewritePaths = (node) => {
  if (Array.isArray(node)) return node.forEach(rewritePaths)
  if (!node || typeof node !== 'object') return
  for (const [key, value] of Object.entries(node))
    if (key === 'path' || key === 'module') node[key] = toShipped(value)
    else rewritePaths(value)
}

// The element's inputs, read from their table (src/inputs.ts): each row's attribute, kind and
// value type, default, reflection and comment. Lit's analysis cannot see them (the element's
// properties are made from the table at run time).
const inputsModule = 'src/inputs.ts'
let inputs = []
function readInputs(ts) {
  const file = ts.createSourceFile(
    inputsModule,
    readFileSync(new URL(inputsModule, import.meta.url), 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  )
  const node = file.statements
    .filter(ts.isVariableStatement)
    .flatMap((statement) => statement.declarationList.declarations)
    .find((declaration) => declaration.name.getText() === 'inputs')
  if (!node) throw new Error(`no inputs table in ${inputsModule}`)
  let table = node.initializer
  while (table && (ts.isSatisfiesExpression(table) || ts.isAsExpression(table)))
    table = table.expression
  inputs = table.properties.map((row) => {
    const fields = Object.fromEntries(
      row.initializer.properties.map((field) => [field.name.getText(), field.initializer]),
    )
    const kind = fields.type.expression.getText()
    const value =
      fields.type.typeArguments?.[0]?.getText() ?? { number: 'number', boolean: 'boolean' }[kind]
    const comment = ts.getTextOfJSDocComment(row.jsDoc?.[0]?.comment) ?? ''
    return {
      name: row.name.getText(),
      attribute: ts.isStringLiteral(fields.attribute) ? fields.attribute.text : undefined,
      kind,
      type: fields.default ? (value ?? 'string') : `${value ?? 'string'} | undefined`,
      default: fields.default?.getText(),
      reflects: !!fields.reflect,
      description: comment.trim(),
    }
  })
}

// Fields and attributes as Lit's analysis writes them. An `object` input (a config, a function)
// has its kebab-case name as a property only; a `json` one's attribute takes JSON text.
function describeInputs(declaration) {
  const names = new Set(inputs.map((input) => input.name))
  const members = inputs.map((input) => ({
    kind: 'field',
    name: input.name,
    privacy: 'public',
    type: { text: input.type },
    ...(input.default ? { default: input.default } : {}),
    description: input.description,
    ...(input.attribute && input.kind !== 'object' ? { attribute: input.attribute } : {}),
    ...(input.reflects ? { reflects: true } : {}),
  }))
  const attributes = inputs
    .filter((input) => input.attribute && input.kind !== 'object')
    .map((input) => ({
      name: input.attribute,
      type: { text: input.kind === 'json' ? 'string' : input.type },
      ...(input.default ? { default: input.default } : {}),
      description:
        input.kind === 'json' ? `JSON of ${input.name}: ${input.description}` : input.description,
      fieldName: input.name,
    }))
  declaration.members = [
    ...members,
    ...(declaration.members ?? []).filter((m) => !names.has(m.name) && m.name !== 'properties'),
  ]
  declaration.attributes = [
    ...attributes,
    ...(declaration.attributes ?? []).filter((a) => !names.has(a.fieldName)),
  ]
}

export default {
  globs: ['src/components/**/*.ts', 'src/events/*.ts'],
  exclude: ['src/**/*.test.ts'],
  outdir: '.',
  litelement: true,
  plugins: [
    {
      name: 'paysession:inputs',
      initialize({ ts }) {
        readInputs(ts)
      },
      packageLinkPhase({ customElementsManifest }) {
        for (const module of customElementsManifest.modules)
          for (const declaration of module.declarations ?? [])
            if (declaration.tagName === 'paysession-checkout') describeInputs(declaration)
      },
    },
    {
      name: 'paysession:documented-events-only',
      // dispatchEvent(new PaySessionXEvent(...)) is seen as a nameless event; the @event tags name them.
      packageLinkPhase({ customElementsManifest }) {
        for (const module of customElementsManifest.modules)
          for (const declaration of module.declarations ?? []) {
            if (declaration.events) declaration.events = declaration.events.filter((e) => e.name)
            if (declaration.members)
              declaration.members = declaration.members.filter((m) => !m.name.startsWith('_'))
            if (declaration.attributes)
              declaration.attributes = declaration.attributes.filter((a) => !a.name.startsWith('_'))
          }
        customElementsManifest.modules.forEach(resolveReexports)
        rewritePaths(customElementsManifest)
      },
    },
  ],
}
