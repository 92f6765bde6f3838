import { readdirSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { localNetwork } from '@paysession/core'
import { describe, expect, test } from 'vitest'
// @ts-expect-error: a build script in plain JavaScript, without types
import { languageTags } from '../scripts/languages.mjs'
import { gaslessNote } from '../src/gasless/gasless.js'
import { languageOf } from '../src/i18n/catalogs.js'
import { type Catalog, catalog as english } from '../src/i18n/en.js'

// Every language says everything English says: a missing key shows a customer English in the
// middle of their language (or nothing). English's error sentences are core's own. A language is
// its file in src/i18n/ (scripts/languages.mjs lists them for the widget).

const here = dirname(fileURLToPath(import.meta.url))
const dir = resolve(here, '../src/i18n')
// The codes a customer can meet: protocol's `customerMessages` (read as text: the widget does not
// depend on protocol directly).
const codesSource = readFileSync(resolve(here, '../../protocol/src/codes.ts'), 'utf8')
const customerCodes = [
  ...codesSource
    .slice(codesSource.indexOf('customerMessages = {'), codesSource.indexOf('} as const'))
    .matchAll(/^ {2}([A-Z_]+): /gm),
].map((m) => m[1]!)
const languages = (languageTags() as string[]).filter((tag) => tag !== 'en')
const load = async (language: string) =>
  ((await import(`../src/i18n/${language}.ts`)) as { catalog: Catalog }).catalog
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
const strings = (catalog: Catalog) =>
  Object.entries(catalog).filter((entry): entry is [string, string] => typeof entry[1] === 'string')

test('the language files are the languages the widget serves', () => {
  expect(languages.length).toBeGreaterThanOrEqual(9)
  expect(readdirSync(dir)).toContain('en.ts')
  for (const language of languages) expect(languageOf(language)).not.toBe('en')
})

describe.each(languages)('%s', (language) => {
  test('has every string English has, with the same placeholders', async () => {
    const catalog = await load(language)
    expect(Object.keys(catalog).sort()).toEqual(Object.keys(english).sort())
    for (const [key, text] of strings(english)) {
      const translated = (catalog as Record<string, unknown>)[key]
      expect(typeof translated, key).toBe('string')
      expect((translated as string).trim(), key).not.toBe('')
      expect(placeholders(translated as string), key).toEqual(placeholders(text))
    }
  })

  test('has a sentence for every error a customer can meet', async () => {
    const { errors } = await load(language)
    expect(customerCodes.length).toBeGreaterThan(25)
    const missing = customerCodes.filter((code) => !errors[code as keyof typeof errors]?.trim())
    expect(missing).toEqual([])
    // Only codes that exist: a renamed code would leave a sentence nobody shows.
    expect(Object.keys(errors).filter((code) => !customerCodes.includes(code))).toEqual([])
    // Same rule in every language: an expired token is never called an expired payment.
    expect(errors.SESSION_TOKEN_EXPIRED).not.toBe(errors.SESSION_EXPIRED)
  })

  test('names the sandbox network in its own words, and the gasless offer too', async () => {
    const { networks } = await load(language)
    const words = localNetwork().displayName!
    expect(networks[words]).toBeTruthy()
    expect(networks[words]).not.toBe(words)
    const note = gaslessNote(await load(language), ['USDC'], language)
    expect(note).not.toBe(gaslessNote(english, ['USDC'], 'en'))
    expect(note).toContain('USDC')
  })
})
