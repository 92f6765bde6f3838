/** See services.mjs. */
export type Service = { url: string; port: number; stop(): Promise<void> }
export declare function startPostgres(): Promise<Service>
export declare function startRedis(): Promise<Service>
