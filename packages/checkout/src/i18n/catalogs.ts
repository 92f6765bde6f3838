import type { Catalog } from './en.js'

export type { Catalog }

// One lazy chunk per language: English is built in, and a page loads only its own language.
const chunks: Record<string, () => Promise<{ catalog: Catalog }>> = {
  de: () => import('./de.js'),
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
 * The catalog for a BCP 47 locale (`de-AT` → `de`, `pt-PT` → `pt-BR`), or undefined for English
 * and languages without one. Traditional Chinese is not served the simplified catalog.
 */
export function loadCatalog(locale: string): Promise<Catalog> | undefined {
  const tag = locale.toLowerCase()
  if (/^zh-(hant|tw|hk|mo)/.test(tag)) return
  return chunks[tag.split('-')[0]!]?.().then((module) => module.catalog)
}
