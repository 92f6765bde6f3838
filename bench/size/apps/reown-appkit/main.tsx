// Reown AppKit with its wagmi adapter: the <appkit-button> web component + a wagmi ERC-20 transfer.
// Built twice by run.mjs: with wagmi 3 (what a fresh install gets) and with wagmi 2.
import { base } from '@reown/appkit/networks'
import { createAppKit } from '@reown/appkit/react'
import { WagmiAdapter } from '@reown/appkit-adapter-wagmi'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createElement } from 'react'
import { createRoot } from 'react-dom/client'
import { WagmiProvider } from 'wagmi'
import { PayButton } from '../payButton'
import { PROJECT_ID } from '../shared'

const wagmiAdapter = new WagmiAdapter({ projectId: PROJECT_ID, networks: [base] })
createAppKit({
  adapters: [wagmiAdapter],
  networks: [base],
  projectId: PROJECT_ID,
  metadata: { name: 'Bench', description: 'Bench', url: 'https://example.com', icons: [] },
})

function Pay() {
  return (
    <>
      {createElement('appkit-button')}
      <PayButton />
    </>
  )
}

createRoot(document.getElementById('app')!).render(
  <WagmiProvider config={wagmiAdapter.wagmiConfig}>
    <QueryClientProvider client={new QueryClient()}>
      <Pay />
    </QueryClientProvider>
  </WagmiProvider>,
)
