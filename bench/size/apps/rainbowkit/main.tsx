// RainbowKit: its ConnectButton + a wagmi ERC-20 transfer.
import '@rainbow-me/rainbowkit/styles.css'
import { ConnectButton, getDefaultConfig, RainbowKitProvider } from '@rainbow-me/rainbowkit'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createRoot } from 'react-dom/client'
import { WagmiProvider } from 'wagmi'
import { base } from 'wagmi/chains'
import { PayButton } from '../payButton'
import { PROJECT_ID } from '../shared'

const config = getDefaultConfig({ appName: 'Bench', projectId: PROJECT_ID, chains: [base] })

function Pay() {
  return (
    <>
      <ConnectButton />
      <PayButton />
    </>
  )
}

createRoot(document.getElementById('app')!).render(
  <WagmiProvider config={config}>
    <QueryClientProvider client={new QueryClient()}>
      <RainbowKitProvider>
        <Pay />
      </RainbowKitProvider>
    </QueryClientProvider>
  </WagmiProvider>,
)
