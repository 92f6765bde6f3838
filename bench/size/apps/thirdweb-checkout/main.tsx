// thirdweb v5: <CheckoutWidget> (the successor of PayEmbed's direct_payment mode).
// The widget has its own connect-wallet step, so no separate connect button.
import { createRoot } from 'react-dom/client'
import { createThirdwebClient } from 'thirdweb'
import { base } from 'thirdweb/chains'
import { CheckoutWidget, ThirdwebProvider } from 'thirdweb/react'
import { MERCHANT, PROJECT_ID, USDC_BASE } from '../shared'

const client = createThirdwebClient({ clientId: PROJECT_ID })

createRoot(document.getElementById('app')!).render(
  <ThirdwebProvider>
    <CheckoutWidget
      client={client}
      chain={base}
      tokenAddress={USDC_BASE}
      amount="10"
      seller={MERCHANT}
      name="Order #1"
    />
  </ThirdwebProvider>,
)
