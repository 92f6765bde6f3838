// Baseline: wagmi + viem + @tanstack/react-query + React, no wallet UI kit. Built twice: with
// wagmi 2, and with wagmi 3 (the bundler aliases `wagmi` to the `wagmi-3` package).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createRoot } from 'react-dom/client'
import { createConfig, http, useAccount, useConnect, WagmiProvider } from 'wagmi'
import { base } from 'wagmi/chains'
import { injected } from 'wagmi/connectors'
import { PayButton } from '../payButton'

const config = createConfig({
  chains: [base],
  connectors: [injected()],
  transports: { [base.id]: http() },
})

function Pay() {
  const { isConnected } = useAccount()
  const { connect, connectors } = useConnect()
  if (isConnected) return <PayButton />
  return (
    <button type="button" onClick={() => connect({ connector: connectors[0]! })}>
      Connect wallet
    </button>
  )
}

createRoot(document.getElementById('app')!).render(
  <WagmiProvider config={config}>
    <QueryClientProvider client={new QueryClient()}>
      <Pay />
    </QueryClientProvider>
  </WagmiProvider>,
)
