import { LogError } from './errors.js';
import { isHash } from './merkle.js';
import type { NodeKey } from './tree-math.js';

export type { NodeKey } from './tree-math.js';

/** A perfect-subtree hash as persisted: one row of `log_nodes(level, idx, hash)`. */
export interface StoredNode extends NodeKey {
  hash: Uint8Array;
}

/**
 * Read access to the perfect-subtree hashes of the log. A perfect subtree never changes once its
 * last leaf is appended, so one row serves every later tree size. The database implementation
 * answers with a single `select level, idx, hash from log_nodes where (level, idx) in (...)`;
 * keys it does not hold are simply absent from the map. Map keys are {@link nodeId}.
 */
export interface NodeStore {
  getNodes(keys: readonly NodeKey[]): Promise<Map<string, Uint8Array>>;
}

/** The map key a {@link NodeStore} uses for a node: `"<level>:<index>"`. */
export function nodeId(key: NodeKey): string {
  return `${key.level}:${key.index}`;
}

/** The error for a node the store lacks (`hash` undefined) or holds with a wrong length. */
function badNode(key: NodeKey, hash: Uint8Array | undefined): LogError {
  const where = `level ${key.level}, index ${key.index}`;
  return hash === undefined
    ? new LogError('missing_node', `node store has no node at ${where}`)
    : new LogError('malformed_hash', `stored node at ${where} is not 32 bytes`);
}

/** The hashes of `keys`, in order, in one store round trip; a missing or bad node throws. */
export async function nodeHashes(
  store: NodeStore,
  keys: readonly NodeKey[],
): Promise<Uint8Array[]> {
  if (keys.length === 0) return [];
  const found = await store.getNodes(keys);
  return keys.map((key) => {
    const hash = found.get(nodeId(key));
    if (hash === undefined || !isHash(hash)) throw badNode(key, hash);
    return hash;
  });
}

/**
 * An in-memory {@link NodeStore} for tests and benchmarks, one dense array per level. Like the
 * `log_nodes` primary key it refuses to store a node twice, so a replayed append fails.
 */
export class MemoryNodeStore implements NodeStore {
  readonly #levels: Uint8Array[][] = [];
  #size = 0;

  /** Number of nodes held. */
  get size(): number {
    return this.#size;
  }

  #hash(key: NodeKey): Uint8Array | undefined {
    return this.#levels[key.level]?.[key.index];
  }

  /** Stores all of `nodes` or, if any is already present, none of them. */
  put(nodes: readonly StoredNode[]): void {
    const ids = new Set(nodes.map(nodeId));
    const duplicate = nodes.find((node) => this.#hash(node) !== undefined);
    if (duplicate !== undefined || ids.size !== nodes.length) {
      throw new Error(`duplicate node ${duplicate ? nodeId(duplicate) : 'within the batch'}`);
    }
    for (const { level, index, hash } of nodes) {
      while (this.#levels.length <= level) this.#levels.push([]);
      (this.#levels[level] as Uint8Array[])[index] = hash;
    }
    this.#size += nodes.length;
  }

  async getNodes(keys: readonly NodeKey[]): Promise<Map<string, Uint8Array>> {
    const found = new Map<string, Uint8Array>();
    for (const key of keys) {
      const hash = this.#hash(key);
      if (hash !== undefined) found.set(nodeId(key), hash);
    }
    return found;
  }
}
