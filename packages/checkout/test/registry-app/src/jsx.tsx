// The element itself in React 19's JSX, typed by @paysession/checkout/jsx (docs/frameworks/react.md).
import type { PaySessionPaidEventDetail } from '@paysession/checkout'
import type { CustomElements } from '@paysession/checkout/jsx'

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements extends CustomElements {}
  }
}

const paid: PaySessionPaidEventDetail[] = []

export const Plain = () => (
  <>
    <paysession-checkout
      session-id="ps_1"
      sessionToken="pst_1"
      rpcUrls={{ 8453: 'https://base.example' }}
      onpaysession-paid={(event) => paid.push(event.detail)}
    />
    {/* @ts-expect-error a number is not a session id */}
    <paysession-checkout sessionId={42} />
    {/* @ts-expect-error a misspelled property */}
    <paysession-checkout sesionToken="pst_1" />
  </>
)
