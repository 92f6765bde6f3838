import { tokenControlsAbi } from '@paysession/protocol'
import type { Address, Client } from 'viem'
import { readContract } from 'viem/actions'
import { PaySessionError } from '../errors/base.js'

// What the token's issuer does to a payment (Circle's FiatToken: pause, blacklist), read before
// any prompt so the customer is told why rather than meeting a reverted transfer. A token without
// these functions reverts on the read, which counts as neither.

const read = (promise: Promise<boolean>) => promise.catch(() => false)

/**
 * Throws TOKEN_PAUSED, RECIPIENT_BLOCKED or PAYER_BLOCKED (in that order: the first one a
 * customer could not fix by changing wallet) when the token would refuse this transfer.
 */
export async function checkTokenControls(
  client: Client,
  token: { address: Address; symbol: string },
  payer: Address,
  recipient: Address,
): Promise<void> {
  const blacklisted = (account: Address) =>
    read(
      readContract(client, {
        address: token.address,
        abi: tokenControlsAbi,
        functionName: 'isBlacklisted',
        args: [account],
      }),
    )
  const [paused, recipientBlocked, payerBlocked] = await Promise.all([
    read(
      readContract(client, {
        address: token.address,
        abi: tokenControlsAbi,
        functionName: 'paused',
      }),
    ),
    blacklisted(recipient),
    blacklisted(payer),
  ])
  if (paused) throw new PaySessionError('TOKEN_PAUSED', { details: `${token.symbol} is paused` })
  if (recipientBlocked)
    throw new PaySessionError('RECIPIENT_BLOCKED', {
      details: `${token.symbol} blacklists the one-time wallet ${recipient}`,
    })
  if (payerBlocked)
    throw new PaySessionError('PAYER_BLOCKED', {
      details: `${token.symbol} blacklists the payer ${payer}`,
    })
}
