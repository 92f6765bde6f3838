// The element itself in React 19's JSX, typed by @paysession/checkout/jsx (docs/frameworks/react.md).
// Each @ts-expect-error must meet its error, or tsc fails. TypeScript never checks a JSX name with
// a hyphen that the element's type lacks (`sesion-token`): the guide says to write camelCase.
import type { PaySessionPaidEventDetail } from '@paysession/checkout'
import type { CustomElements } from '@paysession/checkout/jsx'
import type { HTMLAttributes } from 'react'

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements extends CustomElements<HTMLAttributes<HTMLElement>> {}
  }
}

const paid: PaySessionPaidEventDetail[] = []
const token = 'pst_1'

export const Plain = () => (
  <>
    <paysession-checkout
      session-id="ps_1"
      sessionToken="pst_1"
      rpcUrls={{ 8453: 'https://base.example' }}
      onpaysession-paid={(event) => paid.push(event.detail)}
    />
    <paysession-checkout
      sessionId={token}
      className="checkout"
      style={{ display: 'block' }}
      id="checkout"
      title="Pay"
      hidden
      data-testid="checkout"
      aria-label="Checkout"
      onClick={(event) => event.button}
    />
    {/* @ts-expect-error a number is not a session id */}
    <paysession-checkout sessionId={42} />
    {/* @ts-expect-error a misspelled property, static */}
    <paysession-checkout sesionToken="pst_1" />
    {/* @ts-expect-error a misspelled property, bound */}
    <paysession-checkout sesionToken={token} />
    {/* @ts-expect-error a misspelled field of the event's detail */}
    <paysession-checkout onpaysession-paid={(event) => event.detail.sesionId} />
  </>
)
