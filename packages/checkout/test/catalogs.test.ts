import { readdirSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { localNetwork } from '@paysession/core'
import { describe, expect, test } from 'vitest'
import { languageTags } from '../scripts/languages.mjs'
import { languageOf, rtl } from '../src/i18n/catalogs.js'
import { type Catalog, catalog as english, type Plural } from '../src/i18n/en.js'
import { formatMoney, formatTokenAmount } from '../src/i18n/localize.js'
import { plural } from '../src/i18n/plural.js'
import { gaslessNote } from '../src/paths/gasless/gasless.js'

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
    .matchAll(/^ {2}([A-Z_]+):\s/gm),
]
  .map((m) => m[1]!)
  // Said with INSECURE_API_BASE's sentence (checkout.parts.ts, errorText).
  .filter((code) => code !== 'INVALID_CONFIG')
const languages = (languageTags() as string[]).filter((tag) => tag !== 'en')
const load = async (language: string) =>
  ((await import(`../src/i18n/${language}.ts`)) as { catalog: Catalog }).catalog
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
const strings = (catalog: Catalog) =>
  Object.entries(catalog).filter((entry): entry is [string, string] => typeof entry[1] === 'string')
// The plural messages: objects of strings by category, `other` always among them.
const plurals = (catalog: Catalog) =>
  Object.entries(catalog).filter(
    (entry): entry is [string, Plural] =>
      typeof entry[1] === 'object' && typeof (entry[1] as Plural).other === 'string',
  )
const isolates = /[\u2066-\u2069]/g

test('the language files are the languages the widget serves', () => {
  expect(languages.length).toBeGreaterThanOrEqual(30)
  for (const tag of ['ar', 'he', 'fa', 'tr', 'vi', 'id', 'hi', 'ru', 'uk', 'pl', 'th', 'ms'])
    expect(languages).toContain(tag)
  for (const tag of ['fil', 'sw', 'es-419', 'zh-TW', 'cs', 'ro', 'el', 'hu', 'sv'])
    expect(languages).toContain(tag)
  expect(readdirSync(dir)).toContain('en.ts')
  for (const language of languages) expect(languageOf(language)).toBe(language)
})

test('a locale is served by its own file, its script or region, its base language, else English', () => {
  const served = {
    'es-AR': 'es-419',
    'es-MX': 'es-419',
    'ES-us': 'es-419',
    'es-ES': 'es',
    es: 'es',
    'pt-PT': 'pt-BR',
    'zh-Hans-CN': 'zh-CN',
    zh: 'zh-CN',
    'zh-SG': 'zh-CN',
    'zh-Hant': 'zh-TW',
    'zh-HK': 'zh-TW',
    'zh-TW': 'zh-TW',
    'ar-EG': 'ar',
    'fa-IR': 'fa',
    iw: 'he',
    tl: 'fil',
    in: 'id',
    'sv-FI': 'sv',
    'en-GB': 'en',
    bn: 'en',
    'not a tag': 'en',
  }
  for (const [locale, file] of Object.entries(served)) expect(languageOf(locale), locale).toBe(file)
  expect(['ar', 'he', 'fa', 'ar-EG', 'fa-AF'].every(rtl)).toBe(true)
  expect(['en', 'tr', 'hi', 'ur', 'zh-TW'].some(rtl)).toBe(false)
})

test('amounts: exact, Latin digits, the locale separators; isolated left to right in RTL', () => {
  expect(formatTokenAmount('1234567.123456789', 'USDC', 'hi')).toBe('12,34,567.123456789 USDC')
  expect(formatTokenAmount('1234567.5', 'USDC', 'ru')).toBe('1\u00a0234\u00a0567,50 USDC')
  expect(formatTokenAmount('1234567.5', 'USDT', 'tr')).toBe('1.234.567,50 USDT')
  // Persian and Arabic digits are not used: an amount is read against a wallet's Latin digits.
  expect(formatTokenAmount('1234.5', 'USDC', 'fa')).toBe('\u20661,234.50 USDC\u2069')
  expect(formatTokenAmount('0.000001', 'USDC', 'ar-EG')).toBe('\u20660.000001 USDC\u2069')
  expect(formatMoney('24.50', 'USD', 'ar')).toMatch(/^\u2066.*24\.50.*\u2069$/)
  expect(formatMoney('99999999999999999.99', 'EUR', 'th-TH-u-nu-thai')).toContain(
    '99,999,999,999,999,999.99',
  )
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

  test('has every plural category of its Intl.PluralRules, and no other', async () => {
    const catalog = await load(language)
    const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories
    expect(plurals(english).length).toBeGreaterThan(0)
    for (const [key, message] of plurals(english)) {
      const translated = (catalog as unknown as Record<string, Plural>)[key]!
      expect(Object.keys(translated).sort(), key).toEqual([...categories].sort())
      for (const [category, text] of Object.entries(translated)) {
        expect(text?.trim(), `${key}.${category}`).toBeTruthy()
        // `one` and `two` may spell the number out ("ثانيتين"); no other value may appear.
        expect(placeholders(text!).every((p) => placeholders(message.other).includes(p))).toBe(true)
        if (!['one', 'two'].includes(category))
          expect(placeholders(text!), `${key}.${category}`).toEqual(placeholders(message.other))
      }
      // Every count picks a sentence of its own category, its number in Latin digits.
      for (const count of [0, 1, 2, 3, 5, 11, 21, 100, 120]) {
        const sentence = plural(translated, count, language).replace(isolates, '')
        expect(sentence).toBe(
          translated[new Intl.PluralRules(language).select(count)]!.replace(
            '{count}',
            String(count),
          ).replace(isolates, ''),
        )
      }
    }
  })

  test('keeps values left to right in a right-to-left language, and only there', async () => {
    const catalog = await load(language)
    const texts = strings(catalog).map(([, text]) => text)
    if (!rtl(language)) {
      expect(texts.filter((text) => /[\u2066-\u2069]/.test(text))).toEqual([])
      return
    }
    // Every value sits in an isolate: an amount and its token as one.
    for (const [key, text] of strings(catalog))
      for (const name of placeholders(text))
        expect(text, key).toMatch(new RegExp(`[\u2066\u2068][^\u2069]*\\{${name}\\}`))
    expect(catalog.manualText).toContain('\u2066{amount} {token}\u2069')
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
