// axe-core's checks as every Playwright test here runs them: axe.run in the page itself, its
// source injected once per document. @axe-core/playwright injects the source twice per check
// and finishes each check in a new blank page (for cross-origin frames, which no page of ours
// has); on 2 cores that made axe most of the widget suite's time.
import { createRequire } from 'node:module'

const { source } = createRequire(import.meta.url)('axe-core')

/**
 * axe's violations on the page. `context` and `options` are axe.run's own: `{ include }` or
 * `{ exclude }` with shadow-DOM selector lists, `runOnly` for tags or rules.
 */
export async function axeViolations(page, context, options = {}) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(source)
  const { violations } = await page.evaluate(
    ([context, options]) => window.axe.run(context ?? document, options),
    [context, options],
  )
  return violations
}
