import type { CheckoutStep, PaymentPath } from '@paysession/core'
import { nothing, type TemplateResult } from 'lit'
import type { Step, View } from '../components/checkout/checkout.parts.js'
import { gasless } from './gasless/index.js'
import { manual } from './manual/index.js'
import type { PathView } from './pathView.js'
import { wallet } from './wallet/index.js'

export type { PathView }

// The widget's side of each payment path (core's table is core/src/checkout/paths/): which view
// shows it and how, one row a path, each in its folder. A path's code that loads apart has its
// loader in ../loads.dialog.ts. Adding a path: its folder, its row here, its words.

/** The widget's rows, by core's path names; a path without one (`calls`) shows nothing of its own. */
export const pathViews = { wallet, gasless, manual } satisfies Partial<
  Record<PaymentPath, PathView>
>

const rows: PathView[] = Object.values(pathViews)

/**
 * The review's buttons, the leading one (or the default path's) first and primary: undefined
 * while one of them loads (the review appears whole: a button arriving later would move Pay
 * under a finger).
 */
export function reviewButtons(view: View): TemplateResult[] | undefined {
  const offered = rows.filter((row) => row.button?.offered(view))
  const lead = offered.find((row) => row.button!.leads?.(view)) ?? wallet
  const buttons = [lead, ...offered.filter((row) => row !== lead)].map((row) =>
    row.button!.render(view, row === lead),
  )
  return buttons.every((button) => button) ? (buttons as TemplateResult[]) : undefined
}

/** The paths' links under a choice; the first is the main action when `primary`. */
export const pathLinks = (view: View, primary = false) =>
  rows.flatMap((row) => (row.link ? [row.link] : [])).map((link, i) => link(view, primary && !i))

/** What the no-gas notice adds; `shown`: the review, where the offered paths' buttons are. */
export function gasNotes(view: View, shown: boolean): string | typeof nothing {
  const notes = rows.flatMap((row) =>
    row.gasNote && !(shown && row.button?.offered(view)) ? [row.gasNote(view)] : [],
  )
  const text = notes.filter(Boolean).join(' ')
  return text ? ` ${text}` : nothing
}

/** Each path's code that its view will need, loading early (see `PathView.preload`). */
export function preloadPaths(view: View) {
  for (const row of rows) row.preload?.(view)
}

/** The steps that are a path's own, with their views. */
export const pathSteps: Partial<Record<CheckoutStep, Step>> = Object.assign(
  {},
  ...rows.map((row) => row.steps),
)
