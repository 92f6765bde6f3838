// Compiled under moduleResolution node16 and node10 too: every entry point's types resolve.
import type { PaySessionCheckout, PaySessionPaidEvent } from '@paysession/checkout'
import type { PaySessionCheckout as ReactCheckout } from '@paysession/checkout/react'
import type { PaySessionClient } from '@paysession/server'
import type { RelayHandler } from '@paysession/server/relay'

export type Resolved = [
  PaySessionCheckout,
  PaySessionPaidEvent,
  typeof ReactCheckout,
  PaySessionClient,
  RelayHandler,
]
