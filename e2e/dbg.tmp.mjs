import { chromium } from '@playwright/test'
import { createServer } from 'node:http'
import { readFile } from 'node:fs/promises'
import { join, extname } from 'node:path'
const root = '/work/wt/hosted/apps/demo/dist/hosted'
const base = '/some/sub/path/'
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' }
const server = createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x')
  let p = url.pathname.slice(base.length) || 'index.html'
  try { const body = await readFile(join(root, p)); res.writeHead(200, { 'content-type': types[extname(p)] ?? 'application/octet-stream' }); res.end(body) } catch { res.writeHead(404); res.end() }
})
await new Promise(r => server.listen(0, '127.0.0.1', r))
const origin = `http://127.0.0.1:${server.address().port}`
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-dev-shm-usage'] })
for (let run = 0; run < 6; run++) {
  const page = await browser.newPage()
  const logs = []
  page.on('console', m => logs.push(m.type() + ' ' + m.text().slice(0, 300)))
  page.on('pageerror', e => logs.push('pageerror ' + e.message))
  await page.goto(origin + base + '?wallet=autoapprove')
  await page.getByRole('button', { name: 'Buy' }).first().click()
  await page.waitForURL(/#\/checkout\//)
  await page.waitForFunction(() => window.__sandboxWallet)
  await page.locator('paysession-checkout [part~="button"]').click()
  const step = async () => page.evaluate(() => document.querySelector('paysession-checkout')?.state?.step)
  for (let i = 0; i < 100 && (await step()) !== 'chooseWallet'; i++) await page.waitForTimeout(50)
  await page.locator('paysession-checkout').getByRole('dialog').getByRole('button', { name: 'Sandbox Wallet' }).click()
  for (let i = 0; i < 100 && !['chooseToken','review'].includes(await step()); i++) await page.waitForTimeout(50)
  let ok = true
  try { await page.locator('paysession-checkout').getByRole('dialog').getByRole('button', { name: /^USDC/ }).click({ timeout: 8000 }) } catch { ok = false }
  const st = await page.evaluate(() => { const s = document.querySelector('paysession-checkout')?.state; return JSON.stringify({ step: s?.step, tokens: s?.tokens, error: String(s?.error) }, (k, v) => typeof v === 'bigint' ? v.toString() : v).slice(0, 1500) })
  console.log('run', run, ok, ok ? '' : st)
  if (!ok) console.log(logs.join('\n'))
  await page.close()
}
await browser.close(); server.close()
