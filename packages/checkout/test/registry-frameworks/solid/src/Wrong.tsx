// Each line marked "must fail" must fail tsc (the round trip asserts it). TypeScript never checks
// a JSX name with a hyphen that the element's type lacks (`sesion-token`, `on:paysession-payd`):
// docs/frameworks/solid.md says so, and those are not here.
import '@paysession/checkout'
import type {} from '@paysession/checkout/solid'

const token = 'pst_1'

export const Wrong = () => (
  <>
    <paysession-checkout session-id={42} /> {/* must fail: a number */}
    <paysession-checkout sesionToken={token} /> {/* must fail: camelCase, bound */}
    <paysession-checkout sesionToken="pst_1" /> {/* must fail: camelCase, static */}
    <paysession-checkout prop:sesionToken={token} /> {/* must fail: prop: */}
    <paysession-checkout on:paysession-paid={(e) => e.detail.sesionId} /> {/* must fail: detail */}
  </>
)
