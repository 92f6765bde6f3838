import { type Catalog, en } from './en.js'

export type { Catalog }

/** The dialog catalog for a BCP 47 locale (`de-AT` → `de`); English when there is none. */
export async function loadCatalog(locale: string): Promise<Catalog> {
  const language = locale.toLowerCase().split('-')[0]
  if (language === 'de') return (await import('./de.js')).de
  if (language === 'fr') return (await import('./fr.js')).fr
  return en
}
