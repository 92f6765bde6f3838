// Types of languages.mjs for vite.config.ts.
export function languageTags(): string[]
export const singleFileLanguages: string[]
export function languagesModule(
  tags?: string[],
  form?: { built?: boolean; byUrl?: boolean },
): string
export function catalogModule(catalog: object, english: object): string
export function writeLanguages(): void
