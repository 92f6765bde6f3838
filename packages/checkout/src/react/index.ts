import { createComponent, type EventName } from '@lit/react'
import * as React from 'react'
import { PaySessionCheckout as Element } from '../components/checkout/checkout.js'
import type { PaySessionCloseEvent } from '../events/close.js'
import type { PaySessionErrorEvent } from '../events/error.js'
import type { PaySessionFundingSentEvent } from '../events/funding-sent.js'
import type { PaySessionOpenEvent } from '../events/open.js'
import type { PaySessionPaidEvent } from '../events/paid.js'
import type { PaySessionReadyEvent } from '../events/ready.js'
import type { PaySessionStatusChangeEvent } from '../events/status-change.js'
import type { PaySessionStepChangeEvent } from '../events/step-change.js'
import type { PaySessionTokenSelectedEvent } from '../events/token-selected.js'
import type { PaySessionWalletConnectedEvent } from '../events/wallet-connected.js'

/**
 * `<paysession-checkout>` as a React component: props for attributes and properties,
 * `on*` props for the events.
 * @example
 * <PaySessionCheckout sessionId={id} sessionToken={token} apiBase={url} onPaid={(e) => done(e.detail)} />
 */
export const PaySessionCheckout = createComponent({
  react: React,
  tagName: 'paysession-checkout',
  elementClass: Element,
  displayName: 'PaySessionCheckout',
  events: {
    onReady: 'paysession-ready' as EventName<PaySessionReadyEvent>,
    onOpen: 'paysession-open' as EventName<PaySessionOpenEvent>,
    onClose: 'paysession-close' as EventName<PaySessionCloseEvent>,
    onStepChange: 'paysession-step-change' as EventName<PaySessionStepChangeEvent>,
    onWalletConnected: 'paysession-wallet-connected' as EventName<PaySessionWalletConnectedEvent>,
    onTokenSelected: 'paysession-token-selected' as EventName<PaySessionTokenSelectedEvent>,
    onFundingSent: 'paysession-funding-sent' as EventName<PaySessionFundingSentEvent>,
    onStatusChange: 'paysession-status-change' as EventName<PaySessionStatusChangeEvent>,
    onPaid: 'paysession-paid' as EventName<PaySessionPaidEvent>,
    onError: 'paysession-error' as EventName<PaySessionErrorEvent>,
  },
})
