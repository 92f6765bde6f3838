import type { Catalog } from './en.js'
import { languages } from './languages.js'

export type { Catalog }

// Spanish in the Americas reads the Latin American file (es-419), elsewhere the Spanish one.
const americas = /^(419|AR|BO|CL|CO|CR|CU|DO|EC|GT|HN|MX|NI|PA|PE|PR|PY|SV|US|UY|VE)$/

/**
 * The language file a BCP 47 locale is served from: its own tag (`zh-TW`), then Chinese by script
 * (`zh-HK` → zh-TW), Spanish by region (`es-AR` → es-419), the base language (`es`), any file of
 * that language (`pt-PT` → pt-BR); `en` when there is none.
 */
export function languageOf(locale: string): string {
  let tag: Intl.Locale
  try {
    tag = new Intl.Locale(locale).maximize()
  } catch {
    return 'en'
  }
  const { language, region } = tag
  const served = [
    `${language}-${region}`,
    language === 'zh' ? (tag.script === 'Hant' ? 'zh-TW' : 'zh-CN') : '',
    americas.test(region!) ? `${language}-419` : '',
    language,
  ].find((file) => file in languages)
  return served ?? Object.keys(languages).find((file) => file.split('-')[0] === language) ?? 'en'
}

/** Whether the language is written right to left. */
export const rtl = (locale: string) => /^(ar|fa|he)$/.test(languageOf(locale))

/** Every string of the locale's language: its file is a chunk of its own, loaded once. */
export const loadCatalog = (locale: string): Promise<Catalog> =>
  languages[languageOf(locale)]!().then((module) => module.catalog)
