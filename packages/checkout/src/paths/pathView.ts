import type { CheckoutStep } from '@paysession/core'
import type { TemplateResult } from 'lit'
import type { Step, View } from '../components/checkout/checkout.parts.js'

// The type of a row of the widget's table of paths (./index.ts), apart so that the rows, which
// the table imports, do not import the table back.

/** What the widget shows of a path, and where. */
export type PathView = {
  /** Its button on the review, when the state offers the path; undefined while its code loads. */
  button?: {
    offered(view: View): boolean
    /** It takes the main action's place (first, primary); otherwise the default path does. */
    leads?(view: View): boolean
    render(view: View, primary: boolean): TemplateResult | undefined
  }
  /** Its link under the wallet and token choices; `primary`: the main action there. */
  link?(view: View, primary: boolean): TemplateResult
  /** A sentence the no-gas notice adds where the path's button is not shown. */
  gasNote?(view: View): string | undefined
  /** Its own steps' views (core's path names its step as its view). */
  steps?: Partial<Record<CheckoutStep, Step>>
  /** Starts loading its code before its view shows, so that the view appears whole. */
  preload?(view: View): void
}
