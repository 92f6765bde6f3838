// Every binding form spelled right, and the attributes any element takes: ngc must accept it.
import { Component } from '@angular/core'
import { PaySessionCheckoutDirective } from '@paysession/checkout/angular'

@Component({
  selector: 'app-right',
  imports: [PaySessionCheckoutDirective],
  template: `
    <paysession-checkout [sessionId]="token" bind-sessionToken="token" apiBase="https://api.example.com" />
    <paysession-checkout sessionId="ps_1" session-token="pst_1" api-base="https://api.example.com" />
    <paysession-checkout
      class="checkout"
      [class.wide]="true"
      style="display: block"
      [style.color]="'red'"
      id="checkout"
      title="Pay"
      hidden
      data-testid="checkout"
      [attr.data-session]="token"
      aria-label="Checkout"
      [attr.aria-busy]="true"
      (click)="clicked($event)"
      (paysession-ready)="token = $event.detail.status"
    />
  `,
})
export class RightComponent {
  token = 'pst_1'
  clicked(event: MouseEvent) {
    return event.button
  }
}
