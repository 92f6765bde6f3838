import type { Catalog } from './en.js'

export type { Catalog }

// One lazy chunk per language, English's too: a page loads only its own language's words (the
// English button's are in the first file, so an English button never waits).
const chunks: Record<string, () => Promise<{ catalog: Catalog }>> = {
  de: () => import('./de.js'),
  en: () => import('./en.js'),
  es: () => import('./es.js'),
  fr: () => import('./fr.js'),
  it: () => import('./it.js'),
  ja: () => import('./ja.js'),
  ko: () => import('./ko.js'),
  nl: () => import('./nl.js'),
  pt: () => import('./pt-BR.js'),
  zh: () => import('./zh-CN.js'),
}

/**
 * The language a BCP 47 locale is served in (`de-AT` → `de`, `pt-PT` → `pt`, the pt-BR
 * catalog); `en` when there is no catalog. Traditional Chinese is not served the simplified one.
 */
export function languageOf(locale: string): string {
  const tag = locale.toLowerCase()
  const language = tag.split('-')[0]!
  return language in chunks && !/^zh-(hant|tw|hk|mo)/.test(tag) ? language : 'en'
}

/** Every string of the locale's language. */
export const loadCatalog = (locale: string): Promise<Catalog> =>
  chunks[languageOf(locale)]!().then((module) => module.catalog)
