// `cem analyze`: writes custom-elements.json (attributes, properties, methods, events, parts, CSS properties).

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

// The object properties' attributes (src/components/checkout/checkout.properties.ts): the data
// ones take JSON text; a config or a function has its kebab-case name only as a property.
const jsonAttributes = ['rpc-urls', 'registry', 'networks', 'tokens', 'polling']
const propertyOnly = ['wagmi-config', 'token-provider']
const describeAttributes = (declaration) => {
  declaration.attributes = declaration.attributes?.filter((a) => !propertyOnly.includes(a.name))
  for (const member of declaration.members ?? [])
    if (propertyOnly.includes(member.attribute)) delete member.attribute
  for (const attribute of declaration.attributes ?? [])
    if (jsonAttributes.includes(attribute.name)) {
      attribute.type = { text: 'string' }
      attribute.description = `JSON of ${attribute.fieldName}: ${attribute.description}`
    }
}

export default {
  globs: ['src/components/**/*.ts', 'src/events/*.ts'],
  exclude: ['src/**/*.test.ts'],
  outdir: '.',
  litelement: true,
  plugins: [
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
            describeAttributes(declaration)
          }
        customElementsManifest.modules.forEach(resolveReexports)
        rewritePaths(customElementsManifest)
      },
    },
  ],
}
