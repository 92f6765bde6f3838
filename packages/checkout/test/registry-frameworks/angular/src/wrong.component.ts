// Each line marked "must fail" must fail ngc with strictTemplates (the round trip asserts it).
// Angular checks bindings only: a static attribute (`sesion-token="…"`) and an event name are
// the element's own, unchecked (docs/frameworks/angular.md), so those are not here.
import { Component } from '@angular/core'
import { PaySessionCheckoutDirective } from '@paysession/checkout/angular'

@Component({
  selector: 'app-wrong',
  imports: [PaySessionCheckoutDirective],
  template: `
    <paysession-checkout [sessionId]="42" /><!-- must fail: a number -->
    <paysession-checkout [sesionToken]="token" /><!-- must fail: camelCase, bound -->
    <paysession-checkout [sesion-token]="token" /><!-- must fail: kebab-case, bound -->
    <paysession-checkout bind-sesionToken="token" /><!-- must fail: bind- -->
    <paysession-checkout (paysession-paid)="$event.detail.sesionId" /><!-- must fail: a detail field -->
  `,
})
export class WrongComponent {
  token = 'pst_1'
}
