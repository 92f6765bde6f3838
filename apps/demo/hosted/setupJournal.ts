import { createBrowserChain, type JournalEntry } from '@paysession/browser-chain'
import contracts from '@paysession/sandbox/artifacts/contracts.json' with { type: 'json' }
import { CUSTOMER_KEYS, startInPageService } from '@paysession/sandbox/inpage'

// A new chain's first start is always the same: the sandbox's setup deploys the test tokens and
// funds the test customers. The build runs it once, on the same browser chain with the same
// accounts as the page (world.ts), and ships the chain's journal (assets/setup-journal.json):
// a first visit replays these transactions, as a return visit replays its own, instead of
// estimating, signing and saving them one by one. The service still checks the setup on start
// (runSetup) and sends whatever a journal lacks.

/** The setup's chain steps, with the genesis time they were made from. */
export type SetupJournal = { genesisTimestamp: number; journal: JournalEntry[] }

export const SETUP_JOURNAL_FILE = 'assets/setup-journal.json'

/** Runs the sandbox's first start on a new browser chain and returns what it recorded. */
export async function makeSetupJournal(): Promise<SetupJournal> {
  const chain = await createBrowserChain({ accounts: CUSTOMER_KEYS })
  const service = await startInPageService({
    provider: chain,
    artifacts: contracts as unknown as Parameters<typeof startInPageService>[0]['artifacts'],
    log: () => {},
  })
  await service.stop()
  return { genesisTimestamp: chain.genesisTimestamp, journal: chain.journal() }
}
