import type { PropertyDeclarations, ReactiveElement } from 'lit'
import { PaySessionErrorEvent } from '../../events/error.js'
import { inputRows } from '../../inputs.js'

/** Lit's declarations of the inputs (src/inputs.ts); the object ones' accessors are below. */
export const inputProperties: PropertyDeclarations = Object.fromEntries(
  inputRows.map(([name, { attribute, type, reflect }]) => [
    name,
    type === 'json' || type === 'object'
      ? { attribute, noAccessor: true }
      : {
          attribute,
          reflect,
          type: type === 'number' ? Number : type === 'boolean' ? Boolean : String,
        },
  ]),
)

/**
 * How the element's object properties (the `json` and `object` inputs) are set from any
 * framework's template. Each has a kebab-case attribute (`rpc-urls`) and a property of that same
 * kebab-case name, beside its camelCase one (`rpcUrls`):
 * - Vue, Svelte, Preact and React 19 set a bound name as a property when the element has one
 *   (`name in element`), else as an attribute: `:rpc-urls="{…}"` must reach the property, not
 *   become the attribute `[object Object]`.
 * - The data ones (`json`) also take JSON text, as attribute or property: server-rendered HTML
 *   and plain pages can only write text.
 * - Anything else (`[object Object]`, broken JSON, text for a function) leaves the property unset
 *   and fires `paysession-error` with `INVALID_CONFIG` (and logs it): never silence.
 */
const objectProperties = inputRows.flatMap(([name, { attribute, type }]) =>
  (type === 'json' || type === 'object') && attribute
    ? [{ name, attribute, json: type === 'json' }]
    : [],
)

type Host = ReactiveElement & Record<PropertyKey, unknown>

/** Installs the accessors of `objectProperties` on the element's prototype. */
export function defineObjectProperties(element: { prototype: ReactiveElement }) {
  for (const { name, attribute, json } of objectProperties) {
    const key = Symbol(name)
    Object.defineProperty(element.prototype, name, {
      configurable: true,
      get(this: Host) {
        return this[key]
      },
      set(this: Host, value: unknown) {
        const old = this[key]
        this[key] = read(this, name, attribute, json, value)
        this.requestUpdate(name, old)
      },
    })
    if (attribute !== name)
      Object.defineProperty(element.prototype, attribute, {
        configurable: true,
        get(this: Host) {
          return this[name]
        },
        set(this: Host, value: unknown) {
          this[name] = value
        },
      })
  }
}

function read(host: Host, name: string, attribute: string, json: boolean, value: unknown) {
  if (typeof value !== 'string') return value ?? undefined
  if (json)
    try {
      const parsed: unknown = JSON.parse(value)
      if (parsed && typeof parsed === 'object') return parsed
    } catch {}
  report(host, name, attribute, json, value)
  return undefined
}

function report(host: Host, name: string, attribute: string, json: boolean, value: string) {
  const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value
  const object = value.startsWith('[object ') ? ' (an object written as text)' : ''
  const details = `${attribute}="${shown}"${object}: not ${json ? 'JSON' : 'text'}. Bind the property ${name} or ${attribute} (Vue :${attribute}, Angular [${name}]).`
  // Late, once: a framework attaches its listeners after it sets the element's attributes.
  queueMicrotask(() => {
    // Set right since (a framework's property after the server-rendered attribute): nothing to say.
    if (host[name] !== undefined) return
    console.error(`<paysession-checkout> INVALID_CONFIG: ${details}`)
    host.dispatchEvent(
      new PaySessionErrorEvent({
        code: 'INVALID_CONFIG',
        message: 'The payment client is not configured correctly.',
        retryable: false,
        details,
      }),
    )
  })
}
