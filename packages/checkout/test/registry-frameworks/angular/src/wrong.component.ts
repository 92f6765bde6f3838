// Each binding must fail ngc with strictTemplates (the round trip asserts it).
import { Component } from '@angular/core'
import { PaySessionCheckoutDirective } from '@paysession/checkout/angular'

@Component({
  selector: 'app-wrong',
  imports: [PaySessionCheckoutDirective],
  template: `
    <paysession-checkout [sessionId]="42" />
    <paysession-checkout [sesionToken]="'pst_1'" />
    <paysession-checkout (paysession-paid)="$event.detail.sesionId" />
  `,
})
export class WrongComponent {}
