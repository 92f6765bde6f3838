// Each element must fail tsc (the round trip asserts it). TypeScript leaves unknown hyphenated
// JSX names unchecked, so the misspelling is a camelCase property's.
import '@paysession/checkout'
import type {} from '@paysession/checkout/solid'

export const Wrong = () => (
  <>
    <paysession-checkout session-id={42} />
    <paysession-checkout sesionToken="pst_1" />
    <paysession-checkout on:paysession-paid={(event) => event.detail.sesionId} />
  </>
)
