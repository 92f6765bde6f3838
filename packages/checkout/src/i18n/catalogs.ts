import type { Catalog } from './en.js'
import { languages } from './languages.js'

export type { Catalog }

/**
 * The language file a BCP 47 locale is served from, if any: its own tag (`pt-BR`), its
 * language's in its script (`zh-HK` → zh-TW, `zh-SG` → zh-CN, `pt-PT` → pt-BR), Latin American
 * Spanish outside Spain (`es-AR` → es-419), the base language (`de-AT` → de).
 */
export function served(locale: string): string | undefined {
  let tag: Intl.Locale
  try {
    tag = new Intl.Locale(locale).maximize()
  } catch {
    return
  }
  const { language, script, region } = tag
  return [
    `${language}-${region}`,
    `${language}-${new Intl.Locale(`${language}-${script}`).maximize().region}`,
    region === 'ES' ? language : `${language}-419`,
    language,
  ].find((file) => file in languages)
}

/** The language file of a locale, English when it has none. */
export const languageOf = (locale: string) => served(locale) ?? 'en'

/** Whether the language is written right to left. */
export const rtl = (locale: string) => /^(ar|fa|he)$/.test(languageOf(locale))
