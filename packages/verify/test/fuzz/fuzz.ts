import fc from 'fast-check';
import { mutated } from './mutate.js';
import { crashesOf } from './seeds.js';
import type { FuzzTarget } from './targets.js';

/**
 * Runs one target: fast-check draws a seed and mutations, the target parses the result, and the
 * property holds when the parser answered (a typed result or its typed failure) within
 * MAX_EXEC_MS (the bound the CLI keeps on a whole file). A failure is shrunk by fast-check to a small input, returned for committing.
 */
export const MAX_EXEC_MS = 5_000;

export interface Budget {
  /** A fixed number of runs (the normal test suite), or ... */
  numRuns?: number;
  /** ... as many as fit in this time (`npm run fuzz`). */
  seconds?: number;
  /** fast-check's seed, to replay a run. */
  seed?: number;
}

export interface FuzzReport {
  target: string;
  runs: number;
  ms: number;
  corpus: number;
  seed: number;
  /** The shrunk input that broke the property, and why. */
  failure?: { input: Uint8Array; error: string };
}

/** Calls the target on one input: throws when its contract is broken (see FuzzTarget). */
export async function exercise(target: FuzzTarget, input: Uint8Array): Promise<void> {
  const start = performance.now();
  try {
    await target.run(input);
  } catch (error) {
    if (!target.typed?.(error)) throw error;
  }
  const ms = performance.now() - start;
  if (ms > MAX_EXEC_MS) throw new Error(`${target.name} took ${Math.round(ms)} ms on one input`);
}

export async function fuzz(target: FuzzTarget, budget: Budget): Promise<FuzzReport> {
  const corpus = [...(await target.seeds()), ...crashesOf(target.name)];
  const property = fc.asyncProperty(mutated(corpus), (input) => exercise(target, input));
  const start = performance.now();
  const details = await fc.check(property, {
    ...(budget.seed !== undefined ? { seed: budget.seed } : {}),
    ...(budget.seconds !== undefined
      ? { numRuns: Number.MAX_SAFE_INTEGER, interruptAfterTimeLimit: budget.seconds * 1000 }
      : { numRuns: budget.numRuns ?? 100 }),
    markInterruptAsFailure: false,
  });
  const report: FuzzReport = {
    target: target.name,
    runs: details.numRuns,
    ms: performance.now() - start,
    corpus: corpus.length,
    seed: details.seed,
  };
  if (details.failed && details.counterexample) {
    const [input] = details.counterexample;
    report.failure = { input, error: String(details.errorInstance) };
  }
  return report;
}
