// Every path of the checkout session off the usual payment, for a UI that loads them together
// (`pathsFrom(() => import('@paysession/core/paths'))`). The list is checkout/everyPath.ts.
export * from '../checkout/everyPath.js'
