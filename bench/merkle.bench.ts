/**
 * Merkle log benchmark: `npx tsx bench/merkle.bench.ts`.
 *
 * (a) appends ("seals") 100,000 leaves in batches into a MemoryNodeStore;
 * (b) generates inclusion and consistency proofs at tree sizes 10^3 .. 10^6, counting the node
 *     keys each proof asks the store for, to show the cost grows with log2(n), not n.
 * Prints Markdown tables (the figures in bench/README.md come from this script).
 */
import { performance } from 'node:perf_hooks';
import { appendLeaves, storedRootHash } from '../src/anchoring/compact-range.js';
import { leafHash, verifyConsistency, verifyInclusion } from '../src/anchoring/merkle.js';
import { MemoryNodeStore, type NodeStore } from '../src/anchoring/node-store.js';
import { CountingNodeStore } from '../test/anchoring/reference.js';
import { consistencyProof, inclusionProof } from '../src/anchoring/proofs.js';

const SEAL_LEAVES = 100_000;
const SEAL_BATCH = 1_000;
const TREE_SIZES = [1_000, 10_000, 100_000, 1_000_000];
const PROOFS_PER_SIZE = 2_000;

/** Deterministic PRNG (mulberry32), integers in [0, bound). */
function seededRandom(seed: number): (bound: number) => number {
  let state = seed >>> 0;
  return (bound) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * bound);
  };
}

function leavesOf(count: number): Uint8Array[] {
  return Array.from({ length: count }, (_, i) => leafHash(Buffer.from(`receipt-${i}`)));
}

/** Appends `leaves` in batches, as the log seals them; returns the store, counters and times. */
async function sealedStore(leaves: readonly Uint8Array[], batch: number) {
  const store = new MemoryNodeStore();
  const counting = new CountingNodeStore(store);
  const [started, cpuStarted] = [performance.now(), process.cpuUsage()];
  for (let size = 0; size < leaves.length; size += batch) {
    const { nodes } = await appendLeaves(size, leaves.slice(size, size + batch), counting);
    store.put(nodes);
  }
  const cpu = process.cpuUsage(cpuStarted);
  return {
    store,
    counting,
    ms: performance.now() - started,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}

const fixed = (value: number, digits = 1): string => value.toFixed(digits);
const count = (value: number): string => value.toLocaleString('en');

/** Prints one Markdown table row; a header row is followed by its right-aligned rule. */
function tableRow(cells: readonly string[], header = false): void {
  console.log(`| ${cells.join(' | ')} |`);
  if (header) console.log(`|${'---:|'.repeat(cells.length)}`);
}

async function sealBenchmark(): Promise<void> {
  const leaves = leavesOf(SEAL_LEAVES);
  const { store, counting, ms, cpuMs } = await sealedStore(leaves, SEAL_BATCH);
  console.log(`\n(a) Sealing ${count(SEAL_LEAVES)} leaves in batches of ${count(SEAL_BATCH)}\n`);
  tableRow(
    ['wall ms', 'CPU ms', 'wall µs per leaf', 'nodes written', 'nodes per leaf', 'reads per batch'],
    true,
  );
  tableRow([
    fixed(ms),
    fixed(cpuMs),
    fixed((ms * 1000) / SEAL_LEAVES, 2),
    count(store.size),
    fixed(store.size / SEAL_LEAVES, 3),
    fixed(counting.keys / (SEAL_LEAVES / SEAL_BATCH)),
  ]);
}

/** Per-proof averages of `generate` over `PROOFS_PER_SIZE` random arguments. */
async function proofCost(
  store: NodeStore,
  generate: (store: NodeStore) => Promise<Uint8Array[]>,
): Promise<{ us: number; keys: number; maxKeys: number }> {
  let [keys, maxKeys, ms] = [0, 0, 0];
  for (let trial = 0; trial < PROOFS_PER_SIZE; trial += 1) {
    const counting = new CountingNodeStore(store);
    const started = performance.now();
    await generate(counting);
    ms += performance.now() - started;
    keys += counting.keys;
    maxKeys = Math.max(maxKeys, counting.keys);
  }
  return { us: (ms * 1000) / PROOFS_PER_SIZE, keys: keys / PROOFS_PER_SIZE, maxKeys };
}

/** Spot-checks that generated proofs verify, so the benchmark measures correct work. */
async function checkProofs(store: NodeStore, leaves: readonly Uint8Array[], seed: number) {
  const [random, size] = [seededRandom(seed), leaves.length];
  const [index, m] = [random(size), 1 + random(size)];
  const root = await storedRootHash(size, store);
  const inclusion = await inclusionProof(index, size, store);
  const consistency = await consistencyProof(m, size, store);
  const rootM = await storedRootHash(m, store);
  const leaf = leaves[index] as Uint8Array;
  if (
    !verifyInclusion(leaf, index, size, inclusion, root) ||
    !verifyConsistency(m, size, rootM, root, consistency)
  ) {
    throw new Error(`proof check failed at size ${size}`);
  }
}

async function proofBenchmark(): Promise<void> {
  console.log(`\n(b) Proof generation, ${count(PROOFS_PER_SIZE)} random proofs per size\n`);
  tableRow(
    [
      'tree size n',
      'build wall ms (CPU ms)',
      'log2 n',
      ...['incl.', 'cons.'].flatMap((kind) => [
        `${kind} µs`,
        `${kind} lookups avg (max)`,
        `${kind} lookups / log2 n`,
      ]),
      'O(n) rebuild reads',
    ],
    true,
  );
  for (const size of TREE_SIZES) {
    const random = seededRandom(size);
    const leaves = leavesOf(size);
    const { store, ms, cpuMs } = await sealedStore(leaves, 10_000);
    await checkProofs(store, leaves, size);
    const log2 = Math.log2(size);
    const costs = [
      await proofCost(store, (s) => inclusionProof(random(size), size, s)),
      await proofCost(store, (s) => consistencyProof(1 + random(size), size, s)),
    ];
    tableRow([
      count(size),
      `${count(Math.round(ms))} (${count(Math.round(cpuMs))})`,
      fixed(log2, 2),
      ...costs.flatMap((c) => [
        fixed(c.us),
        `${fixed(c.keys)} (${c.maxKeys})`,
        fixed(c.keys / log2, 2),
      ]),
      count(size),
    ]);
  }
}

/** Runs every measured path once, unreported, so the JIT does not bias the first rows. */
async function warmUp(): Promise<void> {
  const { store } = await sealedStore(leavesOf(20_000), 1_000);
  await proofCost(store, (s) => inclusionProof(12_345, 20_000, s));
  await proofCost(store, (s) => consistencyProof(12_345, 20_000, s));
}

const started = performance.now();
console.log(`Node ${process.version}, ${process.platform}/${process.arch}`);
await warmUp();
await sealBenchmark();
await proofBenchmark();
console.log(`\nTotal ${fixed((performance.now() - started) / 1000)} s`);
