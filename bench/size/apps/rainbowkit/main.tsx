// RainbowKit: its ConnectButton + a wagmi ERC-20 transfer.
import '@rainbow-me/rainbowkit/styles.css'
import { ConnectButton, getDefaultConfig, RainbowKitProvider } from '@rainbow-me/rainbowkit'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createRoot } from 'react-dom/client'
import { erc20Abi } from 'viem'
import { useAccount, useWriteContract, WagmiProvider } from 'wagmi'
import { base } from 'wagmi/chains'
import { AMOUNT, MERCHANT, PROJECT_ID, USDC_BASE } from '../shared'

const config = getDefaultConfig({ appName: 'Bench', projectId: PROJECT_ID, chains: [base] })

function Pay() {
  const { isConnected } = useAccount()
  const { writeContract } = useWriteContract()
  return (
    <>
      <ConnectButton />
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
      <RainbowKitProvider>
        <Pay />
      </RainbowKitProvider>
    </QueryClientProvider>
  </WagmiProvider>,
)
