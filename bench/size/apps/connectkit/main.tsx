// ConnectKit: its ConnectKitButton + a wagmi ERC-20 transfer.
// ConnectKit supports React 17/18 only: the bundler aliases react/react-dom to 18.3.1 here.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ConnectKitButton, ConnectKitProvider, getDefaultConfig } from 'connectkit'
import { createRoot } from 'react-dom/client'
import { createConfig, WagmiProvider } from 'wagmi'
import { base } from 'wagmi/chains'
import { PayButton } from '../payButton'
import { PROJECT_ID } from '../shared'

const config = createConfig(
  getDefaultConfig({ appName: 'Bench', walletConnectProjectId: PROJECT_ID, chains: [base] }),
)

function Pay() {
  return (
    <>
      <ConnectKitButton />
      <PayButton />
    </>
  )
}

createRoot(document.getElementById('app')!).render(
  <WagmiProvider config={config}>
    <QueryClientProvider client={new QueryClient()}>
      <ConnectKitProvider>
        <Pay />
      </ConnectKitProvider>
    </QueryClientProvider>
  </WagmiProvider>,
)
