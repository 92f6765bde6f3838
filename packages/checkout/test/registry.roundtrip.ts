import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stripVTControlCharacters } from 'node:util'
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

// The registry round trip, as a stranger meets the packages: a real npm registry (Verdaccio, no
// uplinks, only @paysession/* in it) gets every public package through the release's own publish
// step (`changeset publish`); a fresh app outside the workspace installs them with plain npm and
// the README's commands, typechecks under strict TypeScript, builds with Vite, and pays a session
// in Chromium against the sandbox; a Node script creates that session and captures it with
// @paysession/server, installed the same way (ESM import and CommonJS require). Then the other
// frameworks (docs/frameworks/*.md): one fresh app with Vue 3, Svelte 5, Solid and Angular
// installed by each guide's own commands, each under its framework's strict template check (where
// a wrong prop type and a misspelled prop must fail), and the Vue and Svelte apps built and paid.
// Last, docs/checkout.md's tarball install, run as written.
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
let published: Promise<Record<string, string>> | undefined
const staticServers: Server[] = []

test.afterAll(async () => {
  registry?.kill()
  await Promise.all(staticServers.map((server) => new Promise((resolve) => server.close(resolve))))
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

/** A check that must fail: its output (stdout and stderr). */
function runFailing(command: string, args: string[], cwd: string) {
  try {
    execFileSync(command, args, { cwd, env: strangerEnv, stdio: ['ignore', 'pipe', 'pipe'] })
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer }
    return `${stdout ?? ''}${stderr ?? ''}`
  }
  throw new Error(`${command} ${args.join(' ')} passed; it must fail`)
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

/** Verdaccio with every public package published by the release's own step (once per run). */
function publishOnce() {
  published ??= (async () => {
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
    return publishEnv
  })()
  return published
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

/** A guide's `npm install …` lines (docs/frameworks/<name>.md), each as npm's arguments. */
function guideInstalls(guide: string) {
  const lines = readFileSync(join(root, 'docs/frameworks', guide), 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line.startsWith('npm install '))
  expect(lines.length, `docs/frameworks/${guide} has no "npm install" line`).toBeGreaterThan(0)
  return lines.map((line) => line.split(/\s+/).slice(2))
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
}

/** Serves a built app on a free port under a strict CSP; returns its URL. */
async function serve(dist: string) {
  const server = createServer((req, res) => {
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  staticServers.push(server)
  return appUrl
}

/** The customer pays the session in a built app (a test wallet on the sandbox's chain). */
async function payInApp(page: Page, appUrl: string, session: Session) {
  const errors: string[] = []
  const onError = (error: Error) => errors.push(String(error))
  page.on('pageerror', onError)
  const query = new URLSearchParams({
    'session-id': session.paymentSessionId,
    'session-token': session.paymentSessionToken,
    'api-base': env.api,
    rpc: env.rpc,
  })
  await page.goto(`${appUrl}/?${query}`)
  await expect(payButton(page)).toHaveText('Pay $7.50')
  await payWithTestWallet(page)
  await expect(dialog(page).getByRole('heading', { name: 'Payment received' })).toBeVisible()
  expect(await page.evaluate(() => (window as any).__paid)).toEqual([
    expect.objectContaining({ sessionId: session.paymentSessionId, replay: false }),
  ])
  page.off('pageerror', onError)
  expect(errors).toEqual([])
}

test('registry round trip: publish, npm install in a fresh app, typecheck, build, pay; the server package from Node', async ({
  page,
}) => {
  test.setTimeout(240_000)

  // 1. A registry with nothing in it, and the release's publish step pointed at it.
  await publishOnce()

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
  const appUrl = await serve(join(app, 'dist'))

  // 5. The merchant's Node side creates the session; the customer pays it in the built app.
  const serverEnv = { PAYSESSION_API_URL: env.api, PAYSESSION_API_KEY: env.apiKey }
  const session = JSON.parse(run('node', ['server/create-session.mjs'], app, serverEnv))
  expect(session.paymentSessionId).toBeTruthy()
  await page.addInitScript(installWallet, { rpcUrl: env.rpc, account: env.customer })
  await payInApp(page, appUrl, session)

  // 6. The merchant captures it from CommonJS: require('@paysession/server').
  expect(run('node', ['server/capture.cjs', session.paymentSessionId], app, serverEnv).trim()).toBe(
    'SUCCEEDED',
  )
})

/**
 * Every line a strict check printed an error for, as `file:line`, once (vue-tsc and tsc print
 * `file(line,col): error`, ngc `file:line:col - error` in colour, svelte-check's machine output
 * `ERROR "file" line:col`).
 */
const errorLines = (colored: string) => {
  const output = stripVTControlCharacters(colored)
  const lines = [
    ...output.matchAll(/^(\S+?)\((\d+),\d+\): error/gm),
    ...output.matchAll(/^(\S+?):(\d+):\d+ - error/gm),
    ...output.matchAll(/ERROR "([^"]+)" (\d+):\d+/g),
  ].map(([, file, line]) => `${file}:${line}`)
  return [...new Set(lines)].sort()
}

/** The lines of a file marked `must fail:`, as `file:line`. */
const mustFail = (dir: string, file: string) =>
  readFileSync(join(dir, file), 'utf8')
    .split('\n')
    .flatMap((text, index) => (text.includes('must fail:') ? [`${file}:${index + 1}`] : []))
    .sort()

test('framework apps: Vue, Svelte, Solid and Angular templates under strict checks from the guides; Vue and Svelte build and pay', async ({
  page,
}) => {
  test.setTimeout(300_000)
  await publishOnce()

  // One fresh app for the four frameworks (one install): the framework as its starter sets it
  // up, then each guide's own install commands, only @paysession/* from the local registry.
  const frameworks = join(work, 'frameworks')
  cpSync(join(root, 'packages/checkout/test/registry-frameworks'), frameworks, { recursive: true })
  writeFileSync(
    join(frameworks, 'package.json'),
    `${JSON.stringify({ name: 'fresh-frameworks', private: true, type: 'module' }, null, 2)}\n`,
  )
  writeFileSync(join(frameworks, '.npmrc'), `@paysession:registry=${registryUrl}\n`)
  const npmInstall = (args: string[]) =>
    run('npm', ['install', '--no-audit', '--no-fund', ...args], frameworks)
  npmInstall([
    'vue@3.5.45',
    'svelte@5.57.3',
    'solid-js@1.9.19',
    '@angular/core@20.3.35',
    '@angular/common@20.3.35',
    '@angular/compiler@20.3.35',
    'rxjs@7.8.2',
    '--save-dev',
    'vite@8.3.8',
    'typescript@5.9.3',
    '@vitejs/plugin-vue@6.0.11',
    'vue-tsc@3.3.14',
    '@vue/tsconfig@0.9.1',
    '@sveltejs/vite-plugin-svelte@7.3.1',
    'svelte-check@4.7.8',
    '@angular/compiler-cli@20.3.35',
  ])
  const installs = new Map<string, string[]>()
  for (const guide of ['vue.md', 'svelte.md', 'solid.md', 'angular.md'])
    for (const args of guideInstalls(guide)) installs.set(args.join(' '), args)
  for (const args of installs.values()) npmInstall(args)

  // Each strict check passes on the app and on Right.* (every binding form spelled right, and
  // class, style, id, data-*, aria-*, a DOM event), and fails on Wrong.* on exactly the lines
  // marked "must fail:": a number for the session id, the misspelled sessionToken in each binding
  // form the framework checks, a misspelled event where it checks events, a misspelled field of
  // the event's detail. The Vue app has create-vue's layout: `vue-tsc --build` from a tsconfig.json
  // with only references, strictTemplates in tsconfig.app.json, as docs/frameworks/vue.md says.
  const bin = (name: string) => join(frameworks, 'node_modules/.bin', name)
  const check = (framework: string, command: string, args: string[], wrong: string) => {
    const dir = join(frameworks, framework)
    const expected = mustFail(dir, wrong)
    expect(expected.length, `${framework}: ${wrong} marks no line`).toBeGreaterThanOrEqual(5)
    const output = runFailing(command, args, dir)
    expect(errorLines(output), `${framework}:\n${output}`).toEqual(expected)
  }
  check('vue', bin('vue-tsc'), ['--build'], 'src/Wrong.vue')
  check(
    'svelte',
    bin('svelte-check'),
    ['--tsconfig', './tsconfig.json', '--output', 'machine'],
    'src/Wrong.svelte',
  )
  check('solid', bin('tsc'), ['-p', 'tsconfig.json', '--pretty', 'false'], 'src/Wrong.tsx')
  check('angular', bin('ngc'), ['-p', 'tsconfig.json'], 'src/wrong.component.ts')

  // Vue and Svelte build (Wrong.* is not imported) and pay in Chromium. Both sessions first: a
  // request after a long build could meet the sandbox's closed keep-alive connection.
  const sessions = [await createSession('7.50', 'USD'), await createSession('7.50', 'USD')]
  await page.addInitScript(installWallet, { rpcUrl: env.rpc, account: env.customer })
  for (const [index, framework] of ['vue', 'svelte'].entries()) {
    run(bin('vite'), ['build', '--logLevel', 'warn'], join(frameworks, framework))
    const appUrl = await serve(join(frameworks, framework, 'dist'))
    await payInApp(page, appUrl, sessions[index]!)
  }
})

test("docs/checkout.md's tarball install: pnpm packs, npm installs the tarballs, core finds protocol", async () => {
  test.setTimeout(120_000)
  const doc = readFileSync(join(root, 'docs/checkout.md'), 'utf8')
  const pack = doc
    .split('\n')
    .find((line) => line.includes('pack --pack-destination'))
    ?.trim()
  const install = doc
    .split('\n')
    .find((line) => line.includes('npm i ../packs/'))
    ?.trim()
  expect(pack, 'docs/checkout.md has no pack command').toMatch(/^node scripts\/pnpm\.mjs /)
  expect(install, 'docs/checkout.md has no tarball install').toMatch(/^cd \.\.\/your-app && npm i /)
  // As written, with only the folders moved into this run's temporary one.
  const packs = join(work, 'packs')
  const tarballApp = join(work, 'your-app')
  mkdirSync(tarballApp)
  writeFileSync(join(tarballApp, 'package.json'), '{ "name": "your-app", "private": true }\n')
  run('sh', ['-c', pack!.replace('"$PWD/../packs"', JSON.stringify(packs))], root)
  run(
    'sh',
    ['-c', install!.replace('cd ../your-app && ', '').replaceAll('../packs/', `${packs}/`)],
    tarballApp,
  )
  expect(
    run(
      'node',
      [
        '--input-type=module',
        '-e',
        "import('@paysession/core').then((core) => console.log(typeof core.createPaySessionConfig))",
      ],
      tarballApp,
    ).trim(),
  ).toBe('function')
})
