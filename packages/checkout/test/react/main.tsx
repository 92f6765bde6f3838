// The React page: <PaySessionCheckout> imported from `@paysession/checkout/react`, resolved
// through the package's exports to dist/ (the npm build) and bundled by vite in global-setup.ts.
// Configured from the query string; every callback call is recorded on `window.__react`.
import { PaySessionCheckout } from '@paysession/checkout/react'
import { useMemo, useState } from 'react'
import { createRoot } from 'react-dom/client'

type Call = { callback: string; detail: unknown }
const calls: Call[] = []
;(window as any).__react = calls
const record = (callback: string) => (event: CustomEvent) =>
  calls.push({ callback, detail: event.detail })

const params = new URLSearchParams(location.search)

function App() {
  const [locale, setLocale] = useState(params.get('locale') ?? 'en')
  const rpc = params.get('rpc')
  const rpcUrls = useMemo(() => (rpc ? { 31337: rpc } : undefined), [rpc])
  return (
    <>
      <h1>React shop</h1>
      <button type="button" onClick={() => setLocale(locale === 'de' ? 'en' : 'de')}>
        {locale === 'de' ? 'English' : 'Deutsch'}
      </button>
      <PaySessionCheckout
        sessionId={params.get('session-id') ?? undefined}
        sessionToken={params.get('session-token') ?? undefined}
        apiBase={params.get('api-base') ?? undefined}
        rpcUrls={rpcUrls}
        locale={locale}
        onReady={record('onReady')}
        onStepChange={record('onStepChange')}
        onPaid={record('onPaid')}
        onError={record('onError')}
      />
    </>
  )
}

createRoot(document.getElementById('root')!).render(<App />)
