// English's words of the button and the dialog's frame: in the first file, so an English button
// never waits for its words, and the words of any button whose language cannot load. The rest of
// English is a chunk like every other language's (en.ts). Read as one namespace object
// (`import * as`), which puts rolldown's helpers in the first file, where both lazy chunks that
// need them find them without a request of their own (test/chunks.test.ts).

export const pay: string = 'Pay {amount}'
export const payLoading: string = 'Loading payment…'
export const paid: string = 'Paid'
export const inProgress: string = 'Payment in progress'
export const expiredButton: string = 'Payment expired'
export const untrackedButton: string = 'View payment'
export const unavailable: string = 'Payment unavailable'
export const title: string = 'Pay with stablecoins'
export const close: string = 'Close'
export const loading: string = 'Loading…'
