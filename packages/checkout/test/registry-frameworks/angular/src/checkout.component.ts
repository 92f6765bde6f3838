// A stranger's Angular component: the element and its typed directive from @paysession/checkout.
import { Component } from '@angular/core'
import '@paysession/checkout'
import type { PaySessionPaidEvent } from '@paysession/checkout'
import { PaySessionCheckoutDirective } from '@paysession/checkout/angular'

@Component({
  selector: 'app-checkout',
  imports: [PaySessionCheckoutDirective],
  template: `
    <paysession-checkout
      [sessionId]="sessionId"
      [sessionToken]="sessionToken"
      apiBase="https://api.example.com"
      [rpcUrls]="rpcUrls"
      (paysession-paid)="paid($event)"
      (paysession-ready)="status = $event.detail.status"
    />
  `,
})
export class CheckoutComponent {
  sessionId = 'ps_1'
  sessionToken = 'pst_1'
  rpcUrls = { 31337: 'http://127.0.0.1:8545' }
  status = ''
  paid(event: PaySessionPaidEvent) {
    console.log(event.detail.sessionId)
  }
}
