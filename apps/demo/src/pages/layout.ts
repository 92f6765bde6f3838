import { html, type SafeHtml } from './html.js'

export type LayoutOptions = {
  title: string
  body: SafeHtml
  /** Highlights the nav entry. */
  active?: 'shop' | 'console'
  /** Extra tags for <head> (scripts). */
  head?: SafeHtml
}

/**
 * "Merchant console", shortened to "Console" on a phone. Its name stays "Merchant console" at
 * every width (aria-label): a screen reader or voice control user finds the same link whatever
 * the window's size, and the short text is part of that name.
 */
const consoleLabel = html`<span class="wide">Merchant console</span><span class="narrow">Console</span>`

/** The page frame every server-rendered page shares. */
export function layout(options: LayoutOptions): string {
  const nav = (
    href: string,
    label: string | SafeHtml,
    key: LayoutOptions['active'],
    name?: string,
  ) =>
    html`<a href="${href}" ${name ? html`aria-label="${name}"` : ''} ${options.active === key ? html`aria-current="page"` : ''}>${label}</a>`
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${options.title} · Harbor &amp; Pine</title>
<link rel="icon" href="/assets/favicon.svg">
<link rel="stylesheet" href="/assets/styles.css">
${options.head ?? ''}
</head>
<body>
<aside class="sandbox-banner" aria-label="Sandbox"><p role="note">Sandbox mode<span class="wide">: payments use test stablecoins on a local chain</span>. No real money moves.</p><div class="wallet-slot" data-sandbox-wallet-slot></div></aside>
<header class="site-header">
  <a class="brand" href="/"><span class="brand-mark" aria-hidden="true">H</span> Harbor &amp; Pine</a>
  <nav aria-label="Main">${nav('/', 'Shop', 'shop')}${nav('/console', consoleLabel, 'console', 'Merchant console')}</nav>
</header>
<main>
${options.body}
</main>
<footer class="site-footer">Demo merchant for <strong>paysession</strong>, stablecoin checkout on the Payment Session Service.</footer>
</body>
</html>
`.value
}
