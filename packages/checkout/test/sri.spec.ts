import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, type Page, test } from '@playwright/test'
import {
  createSession,
  dialog,
  env,
  payButton,
  payWithTestWallet,
  type Session,
} from './support.js'
import { installWallet } from './wallet.js'

// Every byte pinned: pages that run only scripts whose hash the page names. The policy allows
// scripts by hash alone (no host, no 'self'), and `Integrity-Policy` makes Chromium refuse any
// script fetched without integrity metadata, lazy chunks included.
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
const cdn = new URL(`../dist/cdn/${version}/`, import.meta.url)
const sri: Record<string, string> = JSON.parse(readFileSync(new URL('sri.json', cdn), 'utf8'))
const full = 'paysession-checkout.full.js'
const sha = (algorithm: string, text: string | Buffer) =>
  `${algorithm}-${createHash(algorithm).update(text).digest('base64')}`

let server: Server
let origin: string
/** Paths of the script-tag files the server sent. */
const served: string[] = []
// The page's own setup (the local chain's RPC URL) is a script too: pinned like the rest.
const setup = () =>
  `document.querySelector('paysession-checkout').rpcUrls = { 31337: ${JSON.stringify(env.rpc)} }\n`

test.beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const file = url.pathname.split('/').pop()!
    if (url.pathname === '/favicon.ico') return void res.writeHead(204).end()
    if (url.pathname === '/setup.js') {
      res.setHeader('content-type', 'text/javascript')
      return void res.end(setup())
    }
    if (url.pathname.startsWith('/cdn/') || url.pathname.startsWith('/tampered/')) {
      let body: Buffer
      try {
        body = readFileSync(new URL(file, cdn))
      } catch {
        res.statusCode = 404
        return void res.end()
      }
      served.push(url.pathname)
      // One byte changed in flight, as a compromised CDN or proxy would.
      if (url.pathname.startsWith('/tampered/')) body[body.length - 2] = 0x20
      res.setHeader('content-type', 'text/javascript')
      return void res.end(body)
    }
    const session: Session = {
      paymentSessionId: url.searchParams.get('session-id')!,
      paymentSessionToken: url.searchParams.get('session-token')!,
    }
    const page = pages[url.pathname]
    if (!page) {
      res.statusCode = 404
      return void res.end()
    }
    const { html, scriptHashes, self } = page(session, url.searchParams.get('from') ?? 'cdn')
    res.setHeader('content-type', 'text/html; charset=utf-8')
    res.setHeader(
      'content-security-policy',
      [
        "default-src 'none'",
        `script-src ${self ? "'self' " : ''}${scriptHashes.map((h) => `'${h}'`).join(' ')}`,
        "style-src 'none'",
        "img-src 'self' data:",
        `connect-src ${env.api} ${env.rpc}`,
        "base-uri 'none'",
        "form-action 'none'",
      ].join('; '),
    )
    res.setHeader('integrity-policy', 'blocked-destinations=(script)')
    res.end(html)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
test.afterAll(() => new Promise((resolve) => server.close(resolve)))

const element = (session: Session) =>
  `<paysession-checkout session-id="${session.paymentSessionId}" session-token="${session.paymentSessionToken}" api-base="${env.api}"></paysession-checkout>`
const script = (src: string, integrity: string) =>
  `<script type="module" src="${src}" integrity="${integrity}" crossorigin="anonymous"></script>`

const pages: Record<
  string,
  (session: Session, from: string) => { html: string; scriptHashes: string[]; self?: boolean }
> = {
  // The single-file build: one integrity covers the whole checkout.
  '/full.html': (session, from) => ({
    html: `<!doctype html><html lang="en"><head><title>Shop</title>
${script(`/${from}/${full}`, sri[full]!)}
${script('/setup.js', sha('sha384', setup()))}
</head><body><main>${element(session)}</main></body></html>`,
    scriptHashes: [sri[full]!, sha('sha384', setup())],
  }),
  // The split build with an import map whose `integrity` pins every lazy chunk.
  '/split.html': (session, from) => {
    const chunks = Object.keys(sri).filter((f) => f !== full && f !== 'paysession-checkout.js')
    const importMap = JSON.stringify({
      integrity: Object.fromEntries(chunks.map((f) => [`${origin}/${from}/${f}`, sri[f]])),
    })
    return {
      html: `<!doctype html><html lang="en"><head><title>Shop</title>
<script type="importmap">${importMap}</script>
${script('/cdn/paysession-checkout.js', sri['paysession-checkout.js']!)}
${script('/setup.js', sha('sha384', setup()))}
</head><body><main>${element(session)}</main></body></html>`,
      scriptHashes: [
        sha('sha256', importMap),
        sri['paysession-checkout.js']!,
        sha('sha384', setup()),
        ...chunks.map((f) => sri[f]!),
      ],
    }
  },
  // The split build with only the entry's integrity: the policy allows the origin, so only the
  // Integrity-Policy stands between the page and the lazy chunks that carry no integrity.
  '/split-unpinned.html': (session) => ({
    html: `<!doctype html><html lang="en"><head><title>Shop</title>
${script('/cdn/paysession-checkout.js', sri['paysession-checkout.js']!)}
${script('/setup.js', sha('sha384', setup()))}
</head><body><main>${element(session)}</main></body></html>`,
    scriptHashes: [sri['paysession-checkout.js']!, sha('sha384', setup())],
    self: true,
  }),
}

async function open(page: Page, path: string, session: Session, from = 'cdn') {
  const refused: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') refused.push(m.text())
  })
  page.on('pageerror', (e) => refused.push(String(e)))
  await page.addInitScript(installWallet, { rpcUrl: env.rpc, account: env.customer })
  const query = new URLSearchParams({
    'session-id': session.paymentSessionId,
    'session-token': session.paymentSessionToken,
    from,
  })
  await page.goto(`${origin}${path}?${query}`)
  return refused
}

async function pay(page: Page) {
  await payWithTestWallet(page)
  await expect(dialog(page).getByRole('heading', { name: 'Payment received' })).toBeVisible()
}

test('integrity: the single-file build, pinned by one hash, pays under a hash-only CSP', async ({
  page,
}) => {
  const session = await createSession('5.00', 'USD')
  const refused = await open(page, '/full.html', session)
  await expect(payButton(page)).toHaveText('Pay $5.00')
  await pay(page)
  expect(refused).toEqual([])
})

test('integrity: the split build pays with an import map that pins its lazy chunks', async ({
  page,
}) => {
  const session = await createSession('5.00', 'USD')
  const refused = await open(page, '/split.html', session)
  await expect(payButton(page)).toHaveText('Pay $5.00')
  await pay(page)
  expect(refused).toEqual([])
})

test('integrity: one tampered byte in the single file and Chromium runs none of it', async ({
  page,
}) => {
  const session = await createSession('5.00', 'USD')
  const refused = await open(page, '/full.html', session, 'tampered')
  await expect.poll(() => refused.join('\n')).toMatch(/integrity/i)
  expect(await page.evaluate(() => customElements.get('paysession-checkout'))).toBeUndefined()
})

test('integrity: one tampered byte in a lazy chunk and the dialog code never runs', async ({
  page,
}) => {
  const session = await createSession('5.00', 'USD')
  const refused = await open(page, '/split.html', session, 'tampered')
  // The first file is intact: the button paints. The session read's chunk fails its import-map
  // hash, so the button cannot know the amount and says so.
  await expect(payButton(page)).toHaveText('Payment unavailable')
  await payButton(page).click()
  await expect
    .poll(() => refused.join('\n'))
    .toContain('Failed to fetch dynamically imported module')
  expect(refused.join('\n')).toMatch(/integrity|Content Security Policy/i)
  expect(
    await page.evaluate(
      () => (document.querySelector('paysession-checkout') as any).state?.step ?? 'none',
    ),
  ).toBe('none')
})

test('integrity: without the import map a lazy chunk carries no integrity and is refused', async ({
  page,
}) => {
  // Why the single file or the import map: an integrity attribute covers only the entry file.
  const session = await createSession('5.00', 'USD')
  served.length = 0
  const refused = await open(page, '/split-unpinned.html', session)
  // The first file runs; the session read's chunk is refused, so the button shows no amount.
  await expect(payButton(page)).toHaveText('Payment unavailable')
  await payButton(page).click()
  await expect
    .poll(() => refused.join('\n'))
    .toContain('Failed to fetch dynamically imported module')
  // Refused before the request: the server sent the entry and never the dialog chunk.
  expect(served).toEqual(['/cdn/paysession-checkout.js'])
})

test('the single file speaks its nine languages; another locale gets the nearest of them or English', async ({
  page,
}) => {
  const session = await createSession('5.00', 'USD')
  const open = async (locale: string) => {
    const query = new URLSearchParams({
      'session-id': session.paymentSessionId,
      'session-token': session.paymentSessionToken,
      'api-base': env.api,
      rpc: env.rpc,
      locale,
    })
    await page.goto(`${env.page}/test/pages/full.html?${query}`)
  }
  await open('de-AT')
  await expect(payButton(page)).toHaveText(/^\$\s5,00 bezahlen$/)
  await open('es-AR')
  await expect(payButton(page)).toHaveText(/Pagar/)
  // Greek and Dutch are chunks of the split build only.
  await open('el')
  await expect(payButton(page)).toHaveText('Pay $5.00')
  await open('nl')
  await expect(payButton(page)).toHaveText('Pay $5.00')
})
