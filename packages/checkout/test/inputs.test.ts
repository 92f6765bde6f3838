import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { inputProperties } from '../src/components/checkout/checkout.properties.js'
import { type CheckoutHost, settings } from '../src/controllers/checkout.controller.js'
import { type InputKind, type InputName, inputRows, inputs } from '../src/inputs.js'

// The element's inputs are declared once, in src/inputs.ts. What the
// build generates from them (the custom-elements manifest, every framework's template types) and
// what the element and the controller make of them at run time must say the same.

const read = (path: string) =>
  readFileSync(fileURLToPath(new URL(`../${path}`, import.meta.url)), 'utf8')
const names = Object.keys(inputs)
type Row = (typeof inputRows)[number][1]
/** The attribute a page may write (an `object` input's kebab-case name is a property only). */
const attributeOf = (input: Row) =>
  input.attribute && input.type !== 'object' ? input.attribute : undefined

describe('the custom-elements manifest', () => {
  const manifest = JSON.parse(read('custom-elements.json'))
  const element = manifest.modules
    .flatMap((module: { declarations?: unknown[] }) => module.declarations ?? [])
    .find((declaration: { tagName?: string }) => declaration.tagName === 'paysession-checkout')
  type Member = {
    kind: string
    name: string
    static?: boolean
    readonly?: boolean
    privacy?: string
    attribute?: string
    reflects?: boolean
    default?: string
    description?: string
    type: { text: string }
  }
  const fields: Member[] = element.members.filter(
    (m: Member) =>
      m.kind === 'field' && !m.static && !m.readonly && (m.privacy ?? 'public') === 'public',
  )

  test('its settable fields are the inputs, in their order', () => {
    expect(fields.map((field) => field.name)).toEqual(names)
  })

  test.each(inputRows)('%s: its attribute, type, default, reflection and docs', (name, input) => {
    const field = fields.find((f) => f.name === name)!
    expect(field.attribute).toBe(attributeOf(input))
    expect(field.reflects ?? false).toBe(input.reflect ?? false)
    expect(field.default).toBe('default' in input ? JSON.stringify(input.default) : undefined)
    expect(field.description).toMatch(/\w/)
    const type = field.type.text
    if (input.type === 'number') expect(type).toBe('number | undefined')
    else if (input.type === 'boolean')
      expect(type).toBe('default' in input ? 'boolean' : 'boolean | undefined')
    else if (input.type === 'text')
      expect(type).toMatch(/^(string|'[^']*')( \| '[^']*')* \| undefined$/)
    else expect(type).toMatch(/^(?!string \|).+ \| undefined$/)
  })

  test('its attributes are the inputs that have one; a JSON one takes text', () => {
    const expected = inputRows.flatMap(([name, input]) => {
      const attribute = attributeOf(input)
      const type = input.type === 'json' ? 'string' : fields.find((f) => f.name === name)?.type.text
      return attribute ? [{ name: attribute, fieldName: name, type }] : []
    })
    const attributes = element.attributes.map(
      (a: { name: string; fieldName: string; type: { text: string } }) => ({
        name: a.name,
        fieldName: a.fieldName,
        type: a.type.text,
      }),
    )
    expect(attributes).toEqual(expected)
  })
})

describe('the framework types', () => {
  /** The quoted keys of a generated props type, with their types (events left out). */
  const props = (file: string, type: string) => {
    const source = read(file)
    const start = source.indexOf(`export type ${type} = {`)
    expect(start, `${file} has no ${type}`).toBeGreaterThan(-1)
    const body = source.slice(start, source.indexOf('\n}', start))
    return new Map(
      [...body.matchAll(/^ {2}"([^"]+)"\?: (.+)$/gm)]
        .filter(([, , value]) => !value!.startsWith('(event: '))
        .map(([, key, value]) => [key!, value!]),
    )
  }
  const typeOf = (name: InputName) =>
    `PaySessionCheckout["${name}"]${inputs[name].type === 'json' ? ' | string' : ''}`
  /** Each input by its property name, and by its attribute where it has one. */
  const byNameAndAttribute = () =>
    new Map(
      inputRows.flatMap(([name, input]) => {
        const attribute = attributeOf(input)
        const both: [string, string][] = [[name, typeOf(name)]]
        return attribute && attribute !== name ? [...both, [attribute, typeOf(name)]] : both
      }),
    )
  const sorted = (map: Map<string, string>) => [...map].sort(([a], [b]) => a.localeCompare(b))

  test('Vue: each input by its property name (vue-tsc camelizes attributes)', () => {
    const expected = new Map(inputRows.map(([name]) => [name, typeOf(name)]))
    expect(sorted(props('dist/vue/index.d.ts', 'PaySessionCheckoutVueProps'))).toEqual(
      sorted(expected),
    )
  })

  test.each([
    ['Svelte', 'dist/svelte/index.d.ts', 'PaySessionCheckoutSvelteProps'],
    ['JSX', 'dist/jsx/index.d.ts', 'PaySessionCheckoutJsxProps'],
  ])('%s: each input by its property name and its attribute', (_, file, type) => {
    expect(sorted(props(file, type))).toEqual(sorted(byNameAndAttribute()))
  })

  test('Solid: by property name and attribute, and `prop:` for what is not text', () => {
    const expected = byNameAndAttribute()
    for (const [name, input] of inputRows)
      if (input.type !== 'text') expected.set(`prop:${name}`, typeOf(name))
    expect(sorted(props('dist/solid/index.d.ts', 'PaySessionCheckoutSolidProps'))).toEqual(
      sorted(expected),
    )
  })

  test('Angular: one input of the directive per input, typed as the property', () => {
    const source = read('dist/angular/index.d.ts')
    const setters = [...source.matchAll(/^ {4}set (\w+)\(value: (.+)\);$/gm)].map(
      ([, name, type]) => [name, type],
    )
    expect(setters).toEqual(names.map((name) => [name, `PaySessionCheckout["${name}"]`]))
  })
})

describe('the element and the controller', () => {
  test("Lit's declarations: each input's attribute, and the object ones' own accessors", () => {
    for (const [name, input] of inputRows) {
      const declaration = inputProperties[name]!
      expect(declaration.attribute, name).toBe(input.attribute)
      const object = input.type === 'json' || input.type === 'object'
      expect(declaration.noAccessor ?? false, name).toBe(object)
      if (!object) {
        const type = { number: Number, boolean: Boolean }[input.type as string] ?? String
        expect(declaration.type, name).toBe(type)
        expect(declaration.reflect ?? false, name).toBe(input.reflect ?? false)
      }
    }
    expect(Object.keys(inputProperties)).toEqual(names)
  })

  // Two values of each kind that any reading of the setting tells apart.
  const values = {
    text: ['a', 'b'],
    number: [1, 2],
    boolean: [false, true],
    json: [{ a: 1 }, { a: 2 }],
    object: [{ id: 1 }, { id: 2 }],
    property: [{ id: 1 }, { id: 2 }],
  } as const
  const host = (changed?: InputName) =>
    Object.fromEntries(
      inputRows.map(([name, input]) => [
        name,
        values[input.type as InputKind][name === changed ? 1 : 0],
      ]),
    ) as unknown as CheckoutHost

  test.each(inputRows)(
    '%s: a change restarts the checkout exactly when the table says',
    (name, input) => {
      expect(settings(host(name)) !== settings(host())).toBe(input.restarts ?? false)
    },
  )
})
