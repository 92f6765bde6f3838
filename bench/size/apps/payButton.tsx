// The second half of every wagmi app, the same in each: once a wallet is connected (by the kit's
// own button, or the baseline's), a wagmi ERC-20 transfer of the shared payment.
import { erc20Abi } from 'viem'
import { useAccount, useWriteContract } from 'wagmi'
import { AMOUNT, MERCHANT, USDC_BASE } from './shared'

export function PayButton() {
  const { isConnected } = useAccount()
  const { writeContract } = useWriteContract()
  if (!isConnected) return null
  return (
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
  )
}
