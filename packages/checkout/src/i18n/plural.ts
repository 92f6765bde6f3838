import type { Plural } from './en.js'
import { format } from './format.js'
import { numbers } from './localize.js'

/** A message by the count's plural category (Intl.PluralRules), `{count}` the number. */
export function plural(message: Plural, count: number, locale: string): string {
  const category = new Intl.PluralRules(locale).select(count)
  return format(message[category] ?? message.other, {
    count: new Intl.NumberFormat(numbers(locale)).format(count),
  })
}
