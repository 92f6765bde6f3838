// Coinbase OnchainKit: <Checkout> (Coinbase Commerce charge paid in USDC on Base).
// CheckoutButton connects the wallet itself when none is connected, so no separate
// connect button. The charge (10 USDC to the merchant) is created by chargeHandler.
import '@coinbase/onchainkit/styles.css'
import { OnchainKitProvider } from '@coinbase/onchainkit'
import { Checkout, CheckoutButton, CheckoutStatus } from '@coinbase/onchainkit/checkout'
import { createRoot } from 'react-dom/client'
import { base } from 'viem/chains'
import { MERCHANT, PROJECT_ID } from '../shared'

const chargeHandler = async () => {
  const res = await fetch('/api/charge', {
    method: 'POST',
    body: JSON.stringify({ amount: '10', currency: 'USDC', to: MERCHANT }),
  })
  return (await res.json()).id as string
}

createRoot(document.getElementById('app')!).render(
  <OnchainKitProvider apiKey={PROJECT_ID} chain={base}>
    <Checkout chargeHandler={chargeHandler}>
      <CheckoutButton text="Pay 10 USDC" />
      <CheckoutStatus />
    </Checkout>
  </OnchainKitProvider>,
)
