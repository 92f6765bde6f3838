import type { Catalog } from './en.js'
import { languages, rightToLeft } from './languages.js'

export type { Catalog }

/**
 * The language file a BCP 47 locale is served from, if any: its own tag (`pt-BR`), its
 * language's in its script (`zh-HK` → zh-TW, `zh-SG` → zh-CN, `pt-PT` → pt-BR), Latin American
 * Spanish outside Spain (`es-AR` → es-419), the base language (`de-AT` → de).
 */
export function served(locale: string): string | undefined {
  if (servedFiles.has(locale)) return servedFiles.get(locale)
  // A language with one file, alone or with a region (`en`, `de-AT`): its file, without Intl, whose
  // first use costs tens of ms on a phone before the button's read can leave.
  const [, language] = /^([a-z]{2,3})(-[a-z]{2})?$/i.exec(locale) ?? []
  const base = language?.toLowerCase()
  if (base && !/^(es|pt|zh)$/.test(base) && base in languages) return base
  let file: string | undefined
  try {
    const { language, script, region } = new Intl.Locale(locale).maximize()
    file = [
      `${language}-${region}`,
      `${language}-${new Intl.Locale(`${language}-${script}`).maximize().region}`,
      region === 'ES' ? language : `${language}-419`,
      language,
    ].find((file) => file in languages)
  } catch {}
  servedFiles.set(locale, file)
  return file
}
// Each render asks again, and Intl.Locale is slow to build on a phone.
const servedFiles = new Map<string, string | undefined>()

/** The language file of a locale, English when it has none. */
export const languageOf = (locale: string) => served(locale) ?? 'en'

/** Whether the locale's language file is written right to left (it says so: `direction`). */
export const rtl = (locale: string) => rightToLeft.includes(languageOf(locale))
