import type { PaymentSession as ProtocolSession } from '@paysession/protocol'

/** The session as the client sees it: `amount` is required here, the rest as the protocol parses it. */
export type PaymentSession = ProtocolSession & {
  amount: string
  [extra: string]: unknown
}
