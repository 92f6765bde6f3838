// The React component's props under strict tsc: each @ts-expect-error must meet its error, or tsc
// fails; the rest must pass. Type-checked only (main.tsx is the app that is built and paid).
import { PaySessionCheckout } from '@paysession/checkout/react'

const token = 'pst_1'

export const Checked = () => (
  <>
    <PaySessionCheckout
      sessionId={token}
      sessionToken="pst_1"
      className="checkout"
      style={{ display: 'block' }}
      id="checkout"
      title="Pay"
      data-testid="checkout"
      aria-label="Checkout"
      onClick={(event) => event.button}
      onPaid={(event) => event.detail.sessionId}
    />
    {/* @ts-expect-error a number is not a session id */}
    <PaySessionCheckout sessionId={42} />
    {/* @ts-expect-error a misspelled prop, static */}
    <PaySessionCheckout sesionToken="pst_1" />
    {/* @ts-expect-error a misspelled prop, bound */}
    <PaySessionCheckout sesionToken={token} />
    {/* @ts-expect-error a misspelled event */}
    <PaySessionCheckout onPayd={() => token} />
    {/* @ts-expect-error a misspelled field of the event's detail */}
    <PaySessionCheckout onPaid={(event) => event.detail.sesionId} />
  </>
)
