// Every binding form spelled right, and the attributes any element takes: tsc must accept it.
import '@paysession/checkout'
import type {} from '@paysession/checkout/solid'

const token = 'pst_1'
const clicked = (event: MouseEvent) => event.button

export const Right = () => (
  <>
    <paysession-checkout
      session-id={token}
      sessionToken={token}
      api-base="https://api.example.com"
    />
    <paysession-checkout
      sessionId="ps_1"
      rpc-urls='{"1":"https://x.example"}'
      prop:rpcUrls={{ 1: 'https://x.example' }}
    />
    <paysession-checkout
      class="checkout"
      classList={{ wide: true }}
      style={{ display: 'block' }}
      id="checkout"
      title="Pay"
      hidden
      data-testid="checkout"
      aria-label="Checkout"
      onClick={clicked}
      on:paysession-ready={(event) => event.detail.status}
    />
  </>
)
