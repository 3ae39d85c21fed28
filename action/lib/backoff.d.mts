/** Types for backoff.mjs (plain JavaScript so the action runs without a build step). */
export declare const MAX_WAIT_MS: number;
export declare const BASE_DELAY_MS: number;
export declare function parseRetryAfter(
  header: string | null | undefined,
  now?: number,
): number | undefined;
export declare function retryDelayMs(
  attempt: number,
  retryAfterMs: number | undefined,
  random?: () => number,
): number;
