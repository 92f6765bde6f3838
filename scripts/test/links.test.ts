import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { anchorsOf, checkLinks, githubSlug } from '../check-links.mjs'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A git repository holding `files` (path → content), all tracked. */
function repository(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'check-links-'))
  dirs.push(dir)
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
  execFileSync('git', ['init', '-q'], { cwd: dir })
  execFileSync('git', ['add', '-A'], { cwd: dir })
  return dir
}

test('no link in the repository leaves it or points at a missing file or heading', () => {
  expect(checkLinks()).toEqual([])
})

test('finds links that leave the repository, miss a file or miss a heading', () => {
  const cwd = repository({
    'README.md': [
      'The contract: `../shared/spec/service.md`, [spec](../shared/spec/service.md).',
      '[guide](docs/guide.md#install-npm) [gone](docs/gone.md) [bad anchor](docs/guide.md#nothing)',
      '[site](https://example.com/x) [route](/checkout) [self](#the-project)',
      '# The project',
      '```md',
      '[in an example](nowhere.md)',
      '```',
    ].join('\n'),
    'docs/guide.md': '# Guide\n\n## Install (`npm`)\n',
    'src/a.ts': '// See [the guide](../docs/missing.md).\nconst x = y[0](1)\n',
    'app/index.html': '<link href="./assets/styles.css"><script src="../../outside.js"></script>',
    'app/public/styles.css': '',
  })
  expect(
    checkLinks({ cwd }).map(({ file, link, problem }) => `${file} ${link} ${problem}`),
  ).toEqual([
    'README.md ../shared/spec/service.md leaves the repository',
    'README.md docs/gone.md no such file in the repository',
    'README.md docs/guide.md#nothing no heading #nothing in docs/guide.md',
    'README.md ../shared/spec/service.md leaves the repository',
    'app/index.html ../../outside.js leaves the repository',
    'src/a.ts ../docs/missing.md no such file in the repository',
  ])
})

test("headings get GitHub's anchors, repeats numbered", () => {
  expect(githubSlug('Gasless relay (`@paysession/server/relay`)')).toBe(
    'gasless-relay-paysessionserverrelay',
  )
  expect(githubSlug('USER_REJECTED')).toBe('user_rejected')
  expect([...anchorsOf('## Webhooks\n\n### Webhooks\n')]).toEqual(['webhooks', 'webhooks-1'])
})
