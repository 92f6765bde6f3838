import type { Catalog } from './en.js'
import { languages } from './languages.js'

export type { Catalog }

/**
 * The language a BCP 47 locale is served in (`de-AT` → `de`, `pt-PT` → `pt`, the pt-BR
 * file); `en` when there is no file for it. Traditional Chinese is not served the simplified one.
 */
export function languageOf(locale: string): string {
  const tag = locale.toLowerCase()
  const language = tag.split('-')[0]!
  return language in languages && !/^zh-(hant|tw|hk|mo)/.test(tag) ? language : 'en'
}

/** Every string of the locale's language: its file is a chunk of its own, loaded once. */
export const loadCatalog = (locale: string): Promise<Catalog> =>
  languages[languageOf(locale)]!().then((module) => module.catalog)
