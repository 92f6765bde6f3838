/** The English strings the first file needs (button and dialog frame); other languages load. */
export const button = {
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
}

export type ButtonStrings = typeof button
