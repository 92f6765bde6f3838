/** See playwright.mjs. */
export declare function reporter(name: string): Array<['list'] | ['json', { outputFile: string }]>
export declare const workers: number
