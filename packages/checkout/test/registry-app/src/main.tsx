// A stranger's React app: @paysession/checkout installed from a registry with plain npm, checked
// by strict TypeScript, bundled by Vite. The session comes from the query string.
import type { PaySessionPaidEvent } from '@paysession/checkout'
import { PaySessionCheckout } from '@paysession/checkout/react'
import { createRoot } from 'react-dom/client'

const params = new URLSearchParams(location.search)
const paid: PaySessionPaidEvent['detail'][] = []
Object.assign(window, { __paid: paid })

const element: HTMLElementTagNameMap['paysession-checkout'] | null =
  document.querySelector('paysession-checkout')
if (element) throw new Error('rendered twice')

createRoot(document.getElementById('root')!).render(
  <PaySessionCheckout
    sessionId={params.get('session-id') ?? undefined}
    sessionToken={params.get('session-token') ?? undefined}
    apiBase={params.get('api-base') ?? undefined}
    rpcUrls={{ 31337: params.get('rpc') ?? '' }}
    onPaid={(event) => paid.push(event.detail)}
  />,
)
