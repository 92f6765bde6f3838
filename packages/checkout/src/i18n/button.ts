/** The strings the first file needs (button and dialog frame), per language. */
export const buttonStrings = {
  en: {
    pay: 'Pay {amount}',
    payLoading: 'Loading payment…',
    paid: 'Paid',
    inProgress: 'Payment in progress',
    expiredButton: 'Payment expired',
    untrackedButton: 'View payment',
    unavailable: 'Payment unavailable',
    title: 'Pay with stablecoins',
    close: 'Close',
    loading: 'Loading…',
  },
  de: {
    pay: '{amount} bezahlen',
    payLoading: 'Zahlung wird geladen…',
    paid: 'Bezahlt',
    inProgress: 'Zahlung läuft',
    expiredButton: 'Zahlung abgelaufen',
    untrackedButton: 'Zahlung ansehen',
    unavailable: 'Zahlung nicht verfügbar',
    title: 'Mit Stablecoins bezahlen',
    close: 'Schließen',
    loading: 'Wird geladen…',
  },
  fr: {
    pay: 'Payer {amount}',
    payLoading: 'Chargement du paiement…',
    paid: 'Payé',
    inProgress: 'Paiement en cours',
    expiredButton: 'Paiement expiré',
    untrackedButton: 'Voir le paiement',
    unavailable: 'Paiement indisponible',
    title: 'Payer en stablecoins',
    close: 'Fermer',
    loading: 'Chargement…',
  },
}

export type ButtonStrings = (typeof buttonStrings)['en']

/** The button strings for a BCP 47 locale (`de-AT` → `de`), English when there are none. */
export const buttonStringsFor = (locale: string): ButtonStrings =>
  buttonStrings[locale.toLowerCase().split('-')[0] as keyof typeof buttonStrings] ??
  buttonStrings.en
