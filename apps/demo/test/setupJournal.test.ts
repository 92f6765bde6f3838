import { createBrowserChain, type JournalEntry } from '@paysession/browser-chain'
import contracts from '@paysession/sandbox/artifacts/contracts.json' with { type: 'json' }
import { CUSTOMER_KEYS, LOCAL_TOKENS, startInPageService } from '@paysession/sandbox/inpage'
import { erc20Abi } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { expect, test } from 'vitest'
import { makeSetupJournal } from '../hosted/setupJournal.js'

// The hosted demo's first visit replays the setup journal the build made instead of running the
// sandbox's setup (hosted/world.ts). Replayed on the page's chain, it must be the whole setup:
// the service starts on it without sending a single setup step, and every test customer holds
// the tokens the sandbox funds them with.
test('the build’s setup journal is the sandbox’s whole first start: replayed, the service sends nothing and the customers are funded', async () => {
  const setup = await makeSetupJournal()
  // At least a deployment and a mint per customer for each token (FiatToken's proxy, library and
  // roles add more); the replay below adding nothing proves it is the whole setup.
  expect(setup.journal.filter((e) => e.kind === 'tx').length).toBeGreaterThan(
    LOCAL_TOKENS.length * (1 + CUSTOMER_KEYS.length),
  )

  const added: JournalEntry[] = []
  const chain = await createBrowserChain({
    accounts: CUSTOMER_KEYS,
    journal: setup.journal,
    genesisTimestamp: setup.genesisTimestamp,
    onJournal: (entry) => void added.push(entry),
  })
  const service = await startInPageService({
    provider: chain,
    artifacts: contracts as unknown as Parameters<typeof startInPageService>[0]['artifacts'],
    log: () => {},
  })
  try {
    expect(added).toEqual([])
    for (const token of LOCAL_TOKENS)
      for (const key of CUSTOMER_KEYS)
        expect(
          await service.chain.publicClient.readContract({
            address: token.address,
            abi: erc20Abi,
            functionName: 'balanceOf',
            args: [privateKeyToAccount(key).address],
          }),
        ).toBe(10_000n * 10n ** BigInt(token.decimals))
  } finally {
    await service.stop()
  }
})
