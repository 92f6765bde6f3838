// Template types for every SPA framework, generated from custom-elements.json (run by `build`,
// after `cem analyze`): dist/vue, dist/svelte, dist/solid, dist/jsx (.d.ts only, with an empty
// module beside each so the export resolves) and dist/angular (a typed directive, compiled by
// Angular's own compiler in partial mode, as Angular libraries ship).
//
// Not custom-element-{vuejs,svelte,solidjs,jsx}-integration: their output types each event's
// handler as CustomEvent<EventClass> (so `detail` is the event itself), lists read-only getters as
// props, keeps Vue's kebab-case keys that vue-tsc 3 no longer matches (it camelizes `session-id`
// and `@paysession-paid`), and writes Svelte 4's `on:`/`bind:` with JSX types for Svelte 5.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const manifest = JSON.parse(readFileSync(join(root, 'custom-elements.json'), 'utf8'))
const declarations = manifest.modules.flatMap((module) => module.declarations ?? [])
const element = declarations.find((declaration) => declaration.tagName === 'paysession-checkout')
if (!element) throw new Error('custom-elements.json has no paysession-checkout')
const tag = element.tagName
const className = element.name

const doc = (text, indent = '  ') =>
  text
    ? `${indent}/** ${text.trim().replace(/\*\//g, '*\\/').replace(/\n/g, `\n${indent} * `)} */\n`
    : ''
const camel = (name) => name.replace(/-([a-z])/g, (_, c) => c.toUpperCase())
const isText = (type) =>
  /^(string|'[^']*'|"[^"]*")( \| ('[^']*'|"[^"]*"|string|undefined))*$/.test(type)

// Everything a template may set: the public, writable fields (attributes and properties alike).
const properties = element.members
  .filter(
    (m) => m.kind === 'field' && !m.readonly && !m.static && (m.privacy ?? 'public') === 'public',
  )
  .map((m) => {
    const attribute = element.attributes.find((a) => a.fieldName === m.name)
    // A data property's attribute takes JSON (checkout.properties.ts): in templates, text too.
    const json = attribute && !isText(m.type.text) && attribute.type?.text === 'string'
    const type = `${className}[${JSON.stringify(m.name)}]${json ? ' | string' : ''}`
    return {
      name: m.name,
      attribute: attribute?.name,
      text: attribute && isText(m.type.text),
      json,
      type,
      description: m.description,
    }
  })
const events = element.events.map((e) => ({
  name: e.name,
  type: e.type.text,
  description: e.description,
}))
const missing = [...properties.filter((p) => !p.description), ...events.filter((e) => !e.type)]
if (missing.length)
  throw new Error(`custom-elements.json lacks docs or types for ${missing.map((m) => m.name)}`)
const eventTypes = [...new Set(events.map((e) => e.type))].sort()
const imports = `import type {\n  ${[className, ...eventTypes].join(',\n  ')},\n} from '../index.js'\n`
const header = (framework, usage) =>
  `// Generated from custom-elements.json by scripts/framework-types.mjs: do not edit.\n// <${tag}> in ${framework} templates. ${usage}\n`

const lines = (entries) => entries.join('')

/** Keys as the template writes them: attribute names, property names, event keys. */
function props({ attributes, eventKey, property = (name) => name }) {
  return lines([
    ...properties.flatMap((p) => {
      const out = []
      if (attributes && p.attribute && (p.text || p.json))
        out.push(`${doc(p.description)}  ${JSON.stringify(p.attribute)}?: ${p.type}\n`)
      if (!attributes || p.attribute !== p.name)
        out.push(`${doc(p.description)}  ${JSON.stringify(property(p.name))}?: ${p.type}\n`)
      if (attributes && p.attribute && !p.text && !p.json && p.attribute !== p.name)
        out.push(`${doc(p.description)}  ${JSON.stringify(p.attribute)}?: ${p.type}\n`)
      return out
    }),
    ...events.map(
      (e) =>
        `${doc(e.description)}  ${JSON.stringify(eventKey(e.name))}?: (event: ${e.type}) => void\n`,
    ),
  ])
}

const files = {
  vue: `${header('Vue', "Import once: import type {} from '@paysession/checkout/vue'")}import type { DefineComponent, HTMLAttributes } from 'vue'
${imports}
/** What a Vue template may set: vue-tsc matches \`session-id\` and \`:rpc-urls\` to these camelCase keys, \`@paysession-paid\` to \`onPaysessionPaid\`. */
export type ${className}VueProps = {
${props({ attributes: false, eventKey: (name) => `on${camel(`-${name}`)}` })}  /** \`data-*\` attributes, camelized as vue-tsc writes them (\`data-test\` is \`dataTest\`): Vue's own HTMLAttributes has none. */
  [data: \`data\${Capitalize<string>}\`]: unknown
}

declare module 'vue' {
  interface GlobalComponents {
    ${JSON.stringify(tag)}: DefineComponent<${className}VueProps & Omit<HTMLAttributes, keyof ${className}VueProps>>
  }
}
`,
  svelte: `${header('Svelte 5', "Import once: import type {} from '@paysession/checkout/svelte'")}import type { HTMLAttributes } from 'svelte/elements'
${imports}
/** What a Svelte template may set: attributes as written, properties in camelCase, \`onpaysession-*\` events. */
export type ${className}SvelteProps = {
${props({ attributes: true, eventKey: (name) => `on${name}` })}}

// Svelte's documented way to type a custom element (svelteHTML.IntrinsicElements extends it).
declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    ${JSON.stringify(tag)}: ${className}SvelteProps & Omit<HTMLAttributes<${className}>, keyof ${className}SvelteProps>
  }
}
`,
  solid: `${header('Solid', "Import once: import type {} from '@paysession/checkout/solid'")}import type { JSX } from 'solid-js'
${imports}
/** What a Solid template may set: attributes (Solid sets a custom element's camelCased property), properties, \`on:paysession-*\` events. */
export type ${className}SolidProps = {
${props({ attributes: true, eventKey: (name) => `on:${name}` })}${lines(
  properties
    .filter((p) => !p.text)
    .map((p) => `${doc(p.description)}  ${JSON.stringify(`prop:${p.name}`)}?: ${p.type}\n`),
)}}

declare module 'solid-js' {
  namespace JSX {
    interface IntrinsicElements {
      ${JSON.stringify(tag)}: ${className}SolidProps & Omit<JSX.HTMLAttributes<${className}>, keyof ${className}SolidProps>
    }
  }
}
`,
  jsx: `${header('JSX (Preact, React 19, others)', 'Add it to your JSX namespace: see docs/frameworks/react.md.')}${imports}
/**
 * What a JSX template may set on <${tag}>: attributes, properties (React 19 and Preact set a
 * name the element has as a property) and \`onpaysession-*\` events.
 */
export type ${className}JsxProps = {
${props({ attributes: true, eventKey: (name) => `on${name}` })}  children?: unknown
  class?: string
  className?: string
  id?: string
  key?: string | number
  ref?: unknown
  slot?: string
  style?: unknown
}

/**
 * The elements to add to a JSX namespace's IntrinsicElements. \`Attributes\`: your framework's
 * HTML attributes (\`title\`, \`hidden\`, \`onClick\`…), which this module cannot name.
 * @example
 * declare module 'react' {
 *   namespace JSX { interface IntrinsicElements extends CustomElements<React.HTMLAttributes<HTMLElement>> {} }
 * }
 */
export type CustomElements<Attributes = {}> = {
  ${JSON.stringify(tag)}: ${className}JsxProps & Omit<Attributes, keyof ${className}JsxProps>
}
`,
}

const dist = join(root, 'dist')
for (const [name, types] of Object.entries(files)) {
  mkdirSync(join(dist, name), { recursive: true })
  writeFileSync(join(dist, name, 'index.d.ts'), types)
  // Types only: the module is empty (importing it is harmless, and publint/attw want a file).
  writeFileSync(join(dist, name, 'index.js'), 'export {}\n')
}

// Angular: a standalone directive on <paysession-checkout> whose inputs are the element's
// properties, so strictTemplates checks every binding's type and refuses unknown ones (no
// CUSTOM_ELEMENTS_SCHEMA needed). Events stay the element's DOM events, typed through
// HTMLElementTagNameMap. Compiled by ngc in partial mode, the format Angular libraries publish.
const angularSource = `// Generated from custom-elements.json by scripts/framework-types.mjs: do not edit.
import { Directive, ElementRef, Input, inject } from '@angular/core'
import type { ${className} } from '../index.js'

/**
 * Typed bindings for <${tag}> in Angular templates: add it to a component's \`imports\`.
 * Every input sets the element's property of the same name; listen to \`(paysession-paid)\`.
 * @example
 * @Component({ imports: [${className}Directive], template: '<${tag} [sessionId]="id" (paysession-paid)="paid($event)" />' })
 */
@Directive({ selector: '${tag}', standalone: true })
export class ${className}Directive {
  private readonly element: ${className} = inject(ElementRef).nativeElement
${lines(
  properties.map(
    (p) =>
      `\n${doc(p.description)}  @Input() set ${p.name}(value: ${p.type.replace(' | string', '')}) {\n    this.element.${p.name} = value\n  }\n`,
  ),
)}}
`
const build = join(root, 'build/angular')
rmSync(build, { recursive: true, force: true })
mkdirSync(join(build, 'angular'), { recursive: true })
writeFileSync(join(build, 'angular/index.ts'), angularSource)
// ../index.js is the package's own types, beside dist/angular once shipped.
writeFileSync(join(build, 'index.d.ts'), "export type * from '../../dist/index.js'\n")
writeFileSync(
  join(build, 'tsconfig.json'),
  JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        module: 'ES2022',
        moduleResolution: 'bundler',
        lib: ['ES2023', 'DOM'],
        strict: true,
        declaration: true,
        skipLibCheck: true,
        rootDir: '.',
        outDir: 'out',
        types: [],
      },
      angularCompilerOptions: { compilationMode: 'partial', strictTemplates: true },
      files: ['angular/index.ts'],
    },
    null,
    2,
  ),
)
const ngc = join(
  dirname(fileURLToPath(import.meta.resolve('@angular/compiler-cli/package.json'))),
  'bundles/src/bin/ngc.js',
)
execFileSync(process.execPath, [ngc, '-p', join(build, 'tsconfig.json')], { stdio: 'inherit' })
mkdirSync(join(dist, 'angular'), { recursive: true })
for (const file of ['index.js', 'index.d.ts'])
  writeFileSync(join(dist, 'angular', file), readFileSync(join(build, 'out/angular', file)))
rmSync(build, { recursive: true, force: true })
console.log(
  `framework types: ${Object.keys(files).join(', ')}, angular (${properties.length} properties, ${events.length} events)`,
)
