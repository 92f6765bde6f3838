/** See check-examples.mjs. */
export function blocksOf(
  markdown: string,
): { lang: string; code: string; line: number; prelude: string | undefined }[]
export function checkExamples(): {
  errors: string[]
  checked: number
  counts: Map<string, number>
  markdownCount: number
}
