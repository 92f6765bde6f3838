// A stranger's Solid app: the element and its Solid JSX types from @paysession/checkout.
import '@paysession/checkout'
import type { PaySessionPaidEventDetail } from '@paysession/checkout'
import type {} from '@paysession/checkout/solid'

export function Checkout(props: { sessionId: string; sessionToken: string; rpc: string }) {
  const paid: PaySessionPaidEventDetail[] = []
  return (
    <paysession-checkout
      session-id={props.sessionId}
      sessionToken={props.sessionToken}
      api-base="https://api.example.com"
      rpcUrls={{ 31337: props.rpc }}
      on:paysession-paid={(event) => paid.push(event.detail)}
    />
  )
}
