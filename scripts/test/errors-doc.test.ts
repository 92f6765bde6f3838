import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
// The built protocol package (scripts/setup.sh builds it), as every other package imports it.
import { paySessionErrorCodes, shortMessages } from '../../packages/protocol/dist/index.js'

// docs/errors.md is the codes table as a page: one heading per code, in any order, each quoting
// the code's sentence (its shortMessage). The page says nothing the table does not.
const page = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8')
const sections = new Map(
  [...page.matchAll(/^## (\S+)\n\n> (.+)$/gm)].map(([, code, sentence]) => [code!, sentence!]),
)

test('docs/errors.md has one section per code, and none for a code that does not exist', () => {
  expect([...sections.keys()].sort()).toEqual([...paySessionErrorCodes].sort())
  // A heading named like a code is a code's section (group headings are words).
  const codeHeadings = page.match(/^## [A-Z0-9_]+$/gm) ?? []
  expect(codeHeadings.length).toBe(sections.size)
})

test("each section quotes the code's shortMessage", () => {
  for (const code of paySessionErrorCodes) {
    expect(sections.get(code), code).toBe(shortMessages[code])
  }
})
