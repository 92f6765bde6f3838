// Every TypeScript and JavaScript block in the tracked Markdown (README, docs/, package READMEs)
// type-checks against the workspace's packages, as a merchant would compile it. HTML blocks are
// loaded in Chromium by docs/test/snippets.spec.ts; the other languages are counted.
//   node scripts/check-examples.mjs    prints what it covered, and each error at its Markdown line
//
// A block is a module of its own. Names a snippet uses without defining (the merchant's `order`,
// the page's `payButton`) come from the placeholders below, only when the block does not define
// them. A block may add its own with an HTML comment right above it, invisible once rendered:
//   <!-- example: declare const checkout: import('@paysession/core').Checkout -->
// Two comments take a block out of this check, and the summary counts them:
//   <!-- file: examples/… -->    the block is that file byte for byte (e2e/runtimes/test/docs.test.ts),
//                                and the file runs in its runtime (e2e/runtimes)
//   <!-- example: framework -->  it needs a framework's own toolchain; the same usage is
//                                type-checked in the fresh apps of the registry round trip
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'

const root = fileURLToPath(new URL('..', import.meta.url))
// Inside the docs package, whose node_modules holds every workspace package and its peers.
const work = join(root, 'docs/.examples')

/** What a snippet may use without defining: the merchant's own code and the page's elements. */
const placeholders = {
  order: '{ id: string; paymentRequestId: string; sessionToken: string }',
  orders:
    '{ save(id: string, session: { paymentSessionId: string; paymentSessionToken?: string }): Promise<void>; bySession(id: string): Promise<{ id: string; sessionToken: string; amount: string }>; get(id: string): { sessionToken: string } | undefined; markPaid(id: string): Promise<void> }',
  confirmOrder: '(sessionId: string) => void',
  fetchFreshToken: '(sessionId: string) => Promise<string | undefined>',
  log: '((...args: unknown[]) => void) & { warn(...args: unknown[]): void }',
  sessionId: 'string',
  sessionToken: 'string',
  id: 'string',
  token: 'string',
  status: 'HTMLElement',
  payButton: 'HTMLButtonElement',
  connectButton: 'HTMLButtonElement',
  checkout: "import('@paysession/checkout').PaySessionCheckout",
  myWagmiConfig: "import('@wagmi/core').Config",
  client: "import('@paysession/server').PaySessionClient",
  paysession: "import('@paysession/server').PaySessionClient",
  rpcUrl: 'string',
  customerKey: "import('viem').Hex",
  loadJournal: '() => Promise<any[]>',
  loadGenesisTimestamp: '() => Promise<number | undefined>',
  appendJournal: '(entry: unknown) => void',
}

const checked = new Set(['ts', 'typescript', 'tsx', 'js', 'javascript', 'jsx', 'mjs'])

/** The tracked Markdown whose blocks are documentation (generated pages excluded). */
function markdownFiles() {
  return execFileSync('git', ['ls-files', '-z', '*.md'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file && !file.startsWith('docs/reference/') && !file.includes('CHANGELOG'))
}

/** Fenced blocks of a Markdown text: `{ lang, code, line, prelude }`. */
export function blocksOf(markdown) {
  const blocks = []
  const lines = markdown.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const open = /^([ \t]*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i] ?? '')
    if (!open) continue
    const [, indent = '', fence = '', lang = ''] = open
    const body = []
    let j = i + 1
    for (; j < lines.length && !(lines[j] ?? '').trimStart().startsWith(fence); j++) {
      body.push((lines[j] ?? '').slice(indent.length))
    }
    const before = (lines[i - 1] ?? '').trim()
    const skip = /^<!--\s*file:/.test(before)
      ? 'runtime'
      : /^<!--\s*example:\s*framework\s*-->$/.test(before)
        ? 'framework'
        : undefined
    const prelude = skip ? undefined : /^<!--\s*example:\s*([\s\S]*?)\s*-->$/.exec(before)?.[1]
    blocks.push({ lang: lang.toLowerCase(), code: body.join('\n'), line: i + 2, prelude, skip })
    i = j
  }
  return blocks
}

/** The names a module declares at its top level (imports, variables, functions, classes). */
function declaredNames(source) {
  const names = new Set()
  const bind = (name) => {
    if (ts.isIdentifier(name)) names.add(name.text)
    else
      for (const element of name.elements) if (!ts.isOmittedExpression(element)) bind(element.name)
  }
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) bind(declaration.name)
    } else if (
      (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) &&
      statement.name
    ) {
      names.add(statement.name.text)
    } else if (ts.isImportDeclaration(statement) && statement.importClause) {
      const clause = statement.importClause
      if (clause.name) names.add(clause.name.text)
      const bindings = clause.namedBindings
      if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text)
      if (bindings && ts.isNamedImports(bindings))
        for (const element of bindings.elements) names.add(element.name.text)
    }
  }
  return names
}

function usedNames(source) {
  const names = new Set()
  const visit = (node) => {
    if (ts.isIdentifier(node)) names.add(node.text)
    ts.forEachChild(node, visit)
  }
  visit(source)
  return names
}

const extension = {
  ts: 'ts',
  typescript: 'ts',
  tsx: 'tsx',
  js: 'js',
  javascript: 'js',
  jsx: 'jsx',
  mjs: 'js',
}

export function checkExamples() {
  rmSync(work, { recursive: true, force: true })
  mkdirSync(work, { recursive: true })
  const sources = new Map() // example file → { file, line }
  const counts = new Map()
  const elsewhere = { runtime: 0, framework: 0 }
  let markdownCount = 0
  for (const file of markdownFiles()) {
    markdownCount++
    const blocks = blocksOf(readFileSync(join(root, file), 'utf8'))
    for (const block of blocks) {
      const lang = block.lang || 'text'
      counts.set(lang, (counts.get(lang) ?? 0) + 1)
      if (!checked.has(lang)) continue
      if (block.skip) {
        elsewhere[block.skip]++
        continue
      }
      const ext = extension[lang]
      const name = `${file.replace(/[^\w]+/g, '_')}_${block.line}.${ext}`
      const scriptKind = ext === 'tsx' || ext === 'jsx' ? ts.ScriptKind.TSX : ts.ScriptKind.TS
      const parsed = ts.createSourceFile(name, block.code, ts.ScriptTarget.ES2022, true, scriptKind)
      const declared = declaredNames(parsed)
      if (block.prelude) {
        const prelude = ts.createSourceFile('prelude.ts', block.prelude, ts.ScriptTarget.ES2022)
        for (const name of declaredNames(prelude)) declared.add(name)
      }
      const used = usedNames(parsed)
      const js = ext.startsWith('js')
      const declarations = Object.entries(placeholders)
        .filter(([placeholder]) => used.has(placeholder) && !declared.has(placeholder))
        .map(([placeholder, type]) =>
          js
            ? `/** @type {${type}} */ var ${placeholder}`
            : `declare const ${placeholder}: ${type}`,
        )
      if (block.prelude) {
        // In JavaScript, `declare const name: Type` becomes its JSDoc form.
        const prelude = js
          ? block.prelude.replace(/declare const (\w+): ([^;]+);?/g, '/** @type {$2} */ var $1\n')
          : block.prelude
        declarations.push(prelude)
      }
      // After the code, so its line numbers stay the Markdown's.
      writeFileSync(join(work, name), `${block.code}\n\n${declarations.join('\n')}\nexport {}\n`)
      sources.set(join(work, name), { file, line: block.line })
    }
  }
  const options = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: ['node'],
    jsx: ts.JsxEmit.ReactJSX,
    noEmit: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    isolatedModules: true,
  }
  const errors = []
  const all = [...sources.keys()]
  // TypeScript strictly; JavaScript as a merchant's editor checks it (checkJs, not strict).
  const runs = [
    { files: all.filter((file) => !/\.jsx?$/.test(file)), options: { ...options, strict: true } },
    {
      files: all.filter((file) => /\.jsx?$/.test(file)),
      options: { ...options, allowJs: true, checkJs: true },
    },
  ]
  let host
  for (const run of runs) {
    const program = ts.createProgram({
      rootNames: run.files,
      options: run.options,
      oldProgram: host,
    })
    host = program
    for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
      const where = diagnostic.file && sources.get(diagnostic.file.fileName)
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')
      if (!where) {
        errors.push(`${diagnostic.file?.fileName ?? 'tsc'}: ${message}`)
        continue
      }
      const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0)
      errors.push(`${where.file}:${where.line + line}: ${message}`)
    }
  }
  return { errors, checked: sources.size, counts, markdownCount, elsewhere }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { errors, checked: count, counts, markdownCount, elsewhere } = checkExamples()
  const others = [...counts]
    .filter(([lang]) => !checked.has(lang))
    .map(([lang, n]) => `${lang} ${n}`)
    .join(', ')
  console.log(
    `examples: ${count} TypeScript/JavaScript blocks type-checked from ${markdownCount} Markdown files; ` +
      `not type-checked: ${others} (html: loaded in Chromium by docs/test/snippets.spec.ts); ` +
      `checked elsewhere: ${elsewhere.runtime} run in their runtime (e2e/runtimes), ` +
      `${elsewhere.framework} framework blocks (their usage type-checked by the registry round trip)`,
  )
  for (const error of errors) console.log(error)
  if (errors.length) {
    console.log(`examples: ${errors.length} error(s)`)
    process.exit(1)
  }
}
