import { describe, expect, it } from 'vitest'
import { isBrowser } from '../src/guard.js'
import { createPaySessionClient } from '../src/index.js'

describe('the API key in a browser page', () => {
  it('tells a page (window and document) from Node, Deno, Bun and Workers', () => {
    expect(isBrowser({ window: {}, document: {} })).toBe(true)
    expect(isBrowser({ window: {} })).toBe(false)
    expect(isBrowser(globalThis)).toBe(false)
  })

  it('the client refuses a page unless told it is a simulation', () => {
    const g = globalThis as { window?: unknown; document?: unknown }
    g.window = {}
    g.document = {}
    try {
      const options = { apiBase: 'http://127.0.0.1:1', apiKey: 'sk_test' }
      expect(() => createPaySessionClient(options)).toThrow(/must not run in a browser page/)
      expect(() =>
        createPaySessionClient({ ...options, dangerouslyAllowBrowser: true }),
      ).not.toThrow()
    } finally {
      delete g.window
      delete g.document
    }
  })
})
