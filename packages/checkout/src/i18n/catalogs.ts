import type { Catalog } from './en.js'

export type { Catalog }

/**
 * The dialog catalog for a BCP 47 locale (`de-AT` → `de`); English when there is none. Each is
 * its own chunk in the script-tag build, English too: a page loads only its language.
 */
export async function loadCatalog(locale: string): Promise<Catalog> {
  const language = locale.toLowerCase().split('-')[0]
  if (language === 'de') return (await import('./de.js')).de
  if (language === 'fr') return (await import('./fr.js')).fr
  return (await import('./en.js')).en
}
