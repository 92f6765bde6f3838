export function githubSlug(heading: string): string
export function anchorsOf(markdown: string): Set<string>
export function linksOf(text: string, kind: 'md' | 'html' | 'ts'): string[]
export function checkLinks(options?: {
  cwd?: string
}): { file: string; link: string; problem: string }[]
