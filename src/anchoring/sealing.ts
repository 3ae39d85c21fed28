import { signCheckpoint } from './checkpoint.js';
import { appendLeaves } from './compact-range.js';
import type { LeavesRecord, LogStore } from './log-store.js';
import { nodeId, type NodeKey, type NodeStore } from './node-store.js';
import type { NoteSigner } from './signed-note.js';

/** Entries appended per page of a seal. */
const SEAL_PAGE = 4_096;
/** Seals prepared again when another replica's seal committed first (then the next poll). */
const ATTEMPTS = 3;

/** A seal computed from the committed log, ready to be written. */
interface PreparedSeal {
  start: number;
  treeSize: number;
  rootHash: Uint8Array;
  note: string;
  pages: LeavesRecord[];
}

/** The store's nodes, and the nodes of the pages prepared before (not yet written). */
function overlay(store: NodeStore, own: Map<string, Uint8Array>): NodeStore {
  return {
    async getNodes(keys: readonly NodeKey[]) {
      const missing = keys.filter((k) => !own.has(nodeId(k)));
      const found = missing.length > 0 ? await store.getNodes(missing) : new Map();
      for (const k of keys) {
        const hash = own.get(nodeId(k));
        if (hash !== undefined) found.set(nodeId(k), hash);
      }
      return found;
    },
  };
}

/** Appends pending entries a page at a time, in memory, up to `limit`; undefined when none. */
async function preparePages(log: LogStore, start: number, limit: number) {
  const pages: LeavesRecord[] = [];
  const own = new Map<string, Uint8Array>();
  const store = overlay(log.nodeStore(), own);
  let head: { treeSize: number; rootHash: Uint8Array } | undefined;
  let afterSeq: number | undefined;
  for (let size = start; size - start < limit;) {
    const wanted = Math.min(SEAL_PAGE, limit - (size - start));
    const entries = await log.pendingAfter(afterSeq, wanted);
    if (entries.length === 0) break;
    const leaves = entries.map((e) => new Uint8Array(e.leafHash));
    const { nodes, ...appended } = await appendLeaves(size, leaves, store);
    for (const node of nodes) own.set(nodeId(node), node.hash);
    pages.push({ firstIndex: size, entries, nodes });
    head = appended;
    size = appended.treeSize;
    afterSeq = entries[entries.length - 1]?.seq;
    // a short page was the end of the backlog: what arrives meanwhile waits for the next seal
    if (entries.length < wanted) break;
  }
  return head && { ...head, pages };
}

/**
 * Reads the pending entries, computes the new tree and signs its checkpoint, all outside any
 * transaction: the store is held only to write the result.
 */
async function prepare(
  log: LogStore,
  origin: string,
  signer: NoteSigner,
  limit: number,
): Promise<PreparedSeal | { start: number }> {
  const start = (await log.latestCheckpoint())?.treeSize ?? 0;
  const appended = await preparePages(log, start, limit);
  if (appended === undefined) return { start };
  const { treeSize, rootHash, pages } = appended;
  const note = await signCheckpoint({ origin, treeSize, rootHash }, signer);
  return { start, treeSize, rootHash, note, pages };
}

/**
 * Writes a prepared seal atomically (the store's `commitSeal`), if the log is still the size it
 * was prepared from (else another replica sealed first: false, nothing written). The entries are
 * still pending then: only a seal removes them from the queue, and every seal that does moves
 * the checkpoint. A crash before the commit leaves the log as it was, the entries pending.
 */
function commit(log: LogStore, seal: PreparedSeal): Promise<boolean> {
  const { start, pages, treeSize, rootHash, note } = seal;
  return log.commitSeal({
    start,
    pages,
    checkpoint: { treeSize, rootHash: Buffer.from(rootHash), note },
  });
}

/**
 * Seals up to `limit` pending entries into one new checkpoint, read, hashed and signed first and
 * written in one short transaction, so that the embedded store's only connection (which
 * issuances wait for) is held for the writes alone. Returns the note when one was written.
 */
export async function seal(
  log: LogStore,
  origin: string,
  signer: NoteSigner,
  limit: number,
): Promise<{ sealed: number; treeSize: number; note?: string }> {
  for (let attempt = 1; ; attempt += 1) {
    const prepared = await prepare(log, origin, signer, limit);
    if (!('note' in prepared)) return { sealed: 0, treeSize: prepared.start };
    if (await commit(log, prepared)) {
      const { start, treeSize, note } = prepared;
      return { sealed: treeSize - start, treeSize, note };
    }
    if (attempt >= ATTEMPTS) return { sealed: 0, treeSize: prepared.start };
  }
}
