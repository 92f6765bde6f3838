import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from '@playwright/test'
import { dialog, env, payButton, waitForStep } from './support.js'
import { installWallet } from './wallet.js'

// The registry round trip, as a stranger meets the packages: a real npm registry (Verdaccio, no
// uplinks, only @paysession/* in it) gets every public package through the release's own publish
// step (`changeset publish`); a fresh app outside the workspace installs them with plain npm and
// the README's commands, typechecks under strict TypeScript, builds with Vite, and pays a session
// in Chromium against the sandbox; a Node script creates that session and captures it with
// @paysession/server, installed the same way (ESM import and CommonJS require).
const root = fileURLToPath(new URL('../../..', import.meta.url))
const publicPackages = readdirSync(join(root, 'packages'))
  .map((dir) => JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')))
  .filter((manifest) => !manifest.private)
  .map((manifest) => manifest.name as string)
const readme = readFileSync(join(root, 'README.md'), 'utf8')
const work = mkdtempSync(join(tmpdir(), 'paysession-registry-'))
const app = join(work, 'app')
let registry: ChildProcess | undefined
let registryUrl: string
let staticServer: Server | undefined

test.afterAll(async () => {
  registry?.kill()
  await new Promise((resolve) => (staticServer ? staticServer.close(resolve) : resolve(null)))
  // PAYSESSION_KEEP_ROUNDTRIP=1 leaves the registry's storage and the app for a look.
  if (process.env.PAYSESSION_KEEP_ROUNDTRIP) console.log(`kept ${work}`)
  else rmSync(work, { recursive: true, force: true })
})

// A stranger's shell: none of the npm_config_* / pnpm variables that `pnpm run` sets for us
// (npm_config_local_prefix alone would make npm install into the workspace), nor the test
// runner's NODE_ENV=production (npm would skip devDependencies) and NODE_PATH.
const strangerEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !/^(npm_|pnpm_|init_cwd$|node_env$|node_path$)/i.test(key),
  ),
)

function run(command: string, args: string[], cwd: string, extraEnv: Record<string, string> = {}) {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: 'utf8',
      env: { ...strangerEnv, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    })
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string }
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`)
  }
}

async function freePort() {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function startRegistry() {
  const storage = join(work, 'registry')
  const config = join(work, 'verdaccio.yaml')
  writeFileSync(
    config,
    [
      `storage: ${join(storage, 'storage')}`,
      'auth:',
      '  htpasswd:',
      `    file: ${join(storage, 'htpasswd')}`,
      // A throwaway registry: cheap hashing, and JWT tokens that need no password check per call.
      '    algorithm: sha1',
      'security:',
      '  api:',
      '    jwt:',
      '      sign:',
      '        expiresIn: 1h',
      'uplinks: {}',
      'packages:',
      "  '@paysession/*':",
      '    access: $all',
      '    publish: $authenticated',
      "  '**':",
      '    access: $all',
      'web:',
      '  enable: false',
      'log: { type: stdout, format: pretty, level: error }',
      '',
    ].join('\n'),
  )
  const port = await freePort()
  registryUrl = `http://127.0.0.1:${port}/`
  registry = spawn(
    process.execPath,
    [
      join(root, 'node_modules/verdaccio/bin/verdaccio'),
      '--config',
      config,
      '--listen',
      `127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  )
  await expect
    .poll(
      () =>
        fetch(`${registryUrl}-/ping`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 30_000 },
    )
    .toBe(200)
  const user = await fetch(`${registryUrl}-/user/org.couchdb.user:release`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'release', password: 'release-password' }),
  })
  expect(user.status).toBe(201)
  return (await user.json()).token as string
}

/** The README's `npm install …` lines for a package (the first fenced block that installs it). */
function readmeInstall(pkg: string) {
  const lines = readme
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line.startsWith(`npm install ${pkg}`))
  expect(lines.length, `README has no "npm install ${pkg}" line`).toBeGreaterThan(0)
  return lines[0]!.split(/\s+/).slice(2)
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
}

test('registry round trip: publish, npm install in a fresh app, typecheck, build, pay; the server package from Node', async ({
  page,
}) => {
  test.setTimeout(240_000)

  // 1. A registry with nothing in it, and the release's publish step pointed at it.
  const token = await startRegistry()
  const npmrc = join(work, 'publish.npmrc')
  const host = registryUrl.replace(/^http:/, '')
  // Only the @paysession scope goes there (pnpm itself and the rest still come from npm's registry).
  writeFileSync(npmrc, `@paysession:registry=${registryUrl}\n${host}:_authToken=${token}\n`)
  const publishEnv = { NPM_CONFIG_USERCONFIG: npmrc }
  // scripts/release.sh's last step, as it runs it (no git tags here).
  run(
    'node',
    ['scripts/pnpm.mjs', 'exec', 'changeset', 'publish', '--no-git-tag'],
    root,
    publishEnv,
  )
  const packument = (name: string) =>
    JSON.parse(run('npm', ['view', name, '--json'], work, publishEnv))
  expect(publicPackages).toEqual(
    expect.arrayContaining(['@paysession/core', '@paysession/checkout']),
  )
  for (const name of publicPackages) expect(packument(name).version).toMatch(/^\d+\.\d+\.\d+/)
  expect(packument('@paysession/checkout').dependencies['@paysession/core']).toMatch(/^\^/)

  // 2. A fresh app outside the workspace: only @paysession/* comes from the local registry.
  cpSync(join(root, 'packages/checkout/test/registry-app'), app, { recursive: true })
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify({ name: 'fresh-app', private: true, type: 'module' }, null, 2)}\n`,
  )
  writeFileSync(join(app, '.npmrc'), `@paysession:registry=${registryUrl}\n`)
  const npmInstall = (args: string[]) =>
    run('npm', ['install', '--no-audit', '--no-fund', ...args], app)
  npmInstall([...readmeInstall('@paysession/checkout'), 'react', 'react-dom'])
  npmInstall(readmeInstall('@paysession/server'))
  npmInstall([
    '--save-dev',
    'vite@8.3.8',
    'typescript@5.9.3',
    '@types/react@19',
    '@types/react-dom@19',
    '@types/node@20', // @paysession/server's types name node:http, as any Node code's do
  ])

  // One copy of each shared package (npm deduplicated core, Lit, viem, wagmi).
  const tree = JSON.parse(run('npm', ['ls', '--all', '--json'], app))
  const copies = (name: string) => {
    const versions = new Set<string>()
    const walk = (deps: Record<string, any> = {}) => {
      for (const [dep, info] of Object.entries(deps)) {
        if (dep === name) versions.add(info.version)
        walk(info.dependencies)
      }
    }
    walk(tree.dependencies)
    return [...versions]
  }
  for (const name of [
    '@paysession/core',
    '@paysession/protocol',
    'lit',
    'viem',
    '@wagmi/core',
    '@tanstack/query-core',
  ])
    expect(copies(name), name).toHaveLength(1)

  // 3. Strict TypeScript, and the types resolve under node16 and node10 as well.
  run(join(app, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], app)
  run(join(app, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.node16.json'], app)
  run(join(app, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.node10.json'], app)

  // 4. Vite builds it; a static server with a strict CSP serves the build.
  run(join(app, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], app)
  const dist = join(app, 'dist')
  staticServer = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const file = normalize(join(dist, path === '/' ? 'index.html' : path))
    try {
      if (!file.startsWith(dist)) throw new Error('outside')
      const body = readFileSync(file)
      res.setHeader('content-type', contentTypes[extname(file)] ?? 'application/octet-stream')
      res.setHeader(
        'content-security-policy',
        `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src ${env.api} ${env.rpc}`,
      )
      res.end(body)
    } catch {
      res.statusCode = 404
      res.end()
    }
  })
  await new Promise<void>((resolve) => staticServer!.listen(0, '127.0.0.1', resolve))
  const appUrl = `http://127.0.0.1:${(staticServer.address() as AddressInfo).port}`

  // 5. The merchant's Node side creates the session; the customer pays it in the built app.
  const serverEnv = { PAYSESSION_API_URL: env.api, PAYSESSION_API_KEY: env.apiKey }
  const session = JSON.parse(run('node', ['server/create-session.mjs'], app, serverEnv))
  expect(session.paymentSessionId).toBeTruthy()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(String(error)))
  await page.addInitScript(installWallet, { rpcUrl: env.rpc, account: env.customer })
  const query = new URLSearchParams({
    'session-id': session.paymentSessionId,
    'session-token': session.paymentSessionToken,
    'api-base': env.api,
    rpc: env.rpc,
  })
  await page.goto(`${appUrl}/?${query}`)
  await expect(payButton(page)).toHaveText('Pay $7.50')
  await payButton(page).click()
  await waitForStep(page, 'chooseWallet')
  await dialog(page).getByRole('button', { name: 'Test Wallet' }).click()
  await waitForStep(page, 'chooseToken')
  await dialog(page).getByRole('button', { name: /USDC/ }).click()
  await waitForStep(page, 'review')
  await dialog(page).getByRole('button', { name: /^Pay / }).click()
  await waitForStep(page, 'paid')
  await expect(dialog(page).getByRole('heading', { name: 'Payment received' })).toBeVisible()
  expect(await page.evaluate(() => (window as any).__paid)).toEqual([
    expect.objectContaining({ sessionId: session.paymentSessionId, replay: false }),
  ])
  expect(errors).toEqual([])

  // 6. The merchant captures it from CommonJS: require('@paysession/server').
  expect(run('node', ['server/capture.cjs', session.paymentSessionId], app, serverEnv).trim()).toBe(
    'SUCCEEDED',
  )
})
