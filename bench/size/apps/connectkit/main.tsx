// ConnectKit: its ConnectKitButton + a wagmi ERC-20 transfer.
// ConnectKit supports React 17/18 only: the bundler aliases react/react-dom to 18.3.1 here.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ConnectKitButton, ConnectKitProvider, getDefaultConfig } from 'connectkit'
import { createRoot } from 'react-dom/client'
import { erc20Abi } from 'viem'
import { createConfig, useAccount, useWriteContract, WagmiProvider } from 'wagmi'
import { base } from 'wagmi/chains'
import { AMOUNT, MERCHANT, PROJECT_ID, USDC_BASE } from '../shared'

const config = createConfig(
  getDefaultConfig({ appName: 'Bench', walletConnectProjectId: PROJECT_ID, chains: [base] }),
)

function Pay() {
  const { isConnected } = useAccount()
  const { writeContract } = useWriteContract()
  return (
    <>
      <ConnectKitButton />
      {isConnected && (
        <button
          type="button"
          onClick={() =>
            writeContract({
              address: USDC_BASE,
              abi: erc20Abi,
              functionName: 'transfer',
              args: [MERCHANT, AMOUNT],
            })
          }
        >
          Pay 10 USDC
        </button>
      )}
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
