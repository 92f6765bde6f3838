import { describe, expect, it } from 'vitest'
import { assertNotBrowser } from '../src/guard.js'

describe('refusing the browser', () => {
  it('the browser entry throws on load', async () => {
    await expect(import('../src/browser.js')).rejects.toThrow(/must not run in a browser/)
  })

  it('the runtime guard throws where window and document exist, not in Node', () => {
    expect(() => assertNotBrowser({ window: {}, document: {} })).toThrow(/API key/)
    expect(() => assertNotBrowser({})).not.toThrow()
    expect(() => assertNotBrowser(globalThis)).not.toThrow()
  })

  it('package.json maps the browser condition to the throwing entry', async () => {
    const { default: pkg } = await import('../package.json', { with: { type: 'json' } })
    expect(pkg.exports['.'].browser).toBe('./dist/browser.js')
  })
})
