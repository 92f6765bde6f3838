// uglify-js ships no types: the one call vite.config.ts makes.
declare module 'uglify-js' {
  export function minify(
    code: string,
    options: { module?: boolean; compress?: object; mangle?: boolean },
  ): { code: string; error?: Error }
}
