import type { Witness } from './cosignature.js';
import { validCosignature } from './cosignature.js';
import { readBounded } from '../../bounded-body.js';

/**
 * The log's side of c2sp.org/tlog-witness: each new checkpoint goes to every configured witness
 * as an `add-checkpoint` request (old size, consistency proof from it, the signed checkpoint);
 * the witness's Ed25519 cosignature is verified and stored. A witness that is down, slow,
 * refuses, or answers garbage or a signature by another key only fails its own attempt (and
 * counts against the quorum); it is retried at the next seal. A 409 (the witness holds another
 * size) is answered once more with a proof from the size it reported.
 */

/** What cosigning needs from the store, implemented by `src/storage/log.ts`. */
export interface WitnessStore {
  /** The size `witness` last cosigned for this log (0 if never). */
  witnessSize(witness: string): Promise<number>;
  /** Stores the cosignature line of `treeSize` and moves the witness's size to it. */
  recordCosignature(input: { witness: string; treeSize: number; line: string }): Promise<void>;
}

/** POSTs `body` to `url`; resolves with the status and (bounded) text of the answer. */
export type WitnessTransport = (
  url: string,
  body: string,
  timeoutMs: number,
  signal?: AbortSignal,
) => Promise<{ status: number; text: string }>;

export interface CosignOutcome {
  witness: string;
  ok: boolean;
  detail: string;
}

export interface CheckpointToCosign {
  treeSize: number;
  /** The note signed by the log (no cosignatures). */
  note: string;
  /** Witnesses that already cosigned it. */
  cosigners: string[];
}

export interface WitnessingOptions {
  witnesses: Witness[];
  quorum: number;
  timeoutMs: number;
  store: WitnessStore;
  /** RFC 9162 consistency proof between two sizes of this log. */
  proof: (from: number, to: number) => Promise<Uint8Array[]>;
  transport?: WitnessTransport;
}

const MAX_ANSWER_BYTES = 64 * 1024;

export class Witnessing {
  readonly quorum: number;

  constructor(private readonly options: WitnessingOptions) {
    this.quorum = options.quorum;
  }

  get witnesses(): readonly Witness[] {
    return this.options.witnesses;
  }

  /**
   * Asks every witness that has not cosigned `checkpoint` yet, in parallel. `signal` abandons
   * the requests in flight (the process is stopping): a witness that never answers cannot hold
   * the process for longer than its shutdown.
   */
  async cosign(checkpoint: CheckpointToCosign, signal?: AbortSignal): Promise<CosignOutcome[]> {
    const pending = this.options.witnesses.filter((w) => !checkpoint.cosigners.includes(w.name));
    return Promise.all(pending.map((w) => this.ask(w, checkpoint, signal)));
  }

  private async ask(
    witness: Witness,
    checkpoint: CheckpointToCosign,
    signal?: AbortSignal,
  ): Promise<CosignOutcome> {
    const fail = (detail: string): CosignOutcome => ({ witness: witness.name, ok: false, detail });
    try {
      let old = await this.options.store.witnessSize(witness.name);
      for (let attempt = 1; attempt <= 2; attempt++) {
        if (old > checkpoint.treeSize) {
          return fail(`the witness has cosigned size ${old}, beyond ${checkpoint.treeSize}`);
        }
        signal?.throwIfAborted();
        const answer = await this.post(witness, await this.request(old, checkpoint), signal);
        if (answer.status === 409 && attempt === 1) {
          const size = /^(0|[1-9][0-9]{0,15})\n?$/.exec(answer.text)?.[1];
          if (size === undefined) return fail('409 without a tree size');
          old = Number(size);
          continue;
        }
        if (answer.status !== 200)
          return fail(`HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
        return await this.keep(witness, checkpoint, answer.text);
      }
      return fail('the witness answered 409 twice');
    } catch (err) {
      return fail(err instanceof Error ? err.message : String(err));
    }
  }

  /** `old <size>`, the proof lines, a blank line, the checkpoint (tlog-witness add-checkpoint). */
  private async request(old: number, checkpoint: CheckpointToCosign): Promise<string> {
    const proof =
      old > 0 && old < checkpoint.treeSize
        ? await this.options.proof(old, checkpoint.treeSize)
        : [];
    const lines = proof.map((hash) => `${Buffer.from(hash).toString('base64')}\n`).join('');
    return `old ${old}\n${lines}\n${checkpoint.note}`;
  }

  private post(witness: Witness, body: string, signal?: AbortSignal) {
    const transport = this.options.transport ?? fetchTransport;
    return transport(`${witness.url}/add-checkpoint`, body, this.options.timeoutMs, signal);
  }

  private async keep(
    witness: Witness,
    checkpoint: CheckpointToCosign,
    text: string,
  ): Promise<CosignOutcome> {
    const body = checkpoint.note.slice(0, checkpoint.note.lastIndexOf('\n\n') + 1);
    const valid = text
      .split('\n')
      .map((line) => validCosignature(line, witness, body))
      .find((c) => c !== undefined);
    if (!valid) {
      return { witness: witness.name, ok: false, detail: 'no valid cosignature by its key' };
    }
    await this.options.store.recordCosignature({
      witness: witness.name,
      treeSize: checkpoint.treeSize,
      line: valid.line,
    });
    return { witness: witness.name, ok: true, detail: `cosigned size ${checkpoint.treeSize}` };
  }
}

/** The default transport: fetch, bounded in time and answer size, no redirects. */
export const fetchTransport: WitnessTransport = async (url, body, timeoutMs, signal) => {
  const timeout = AbortSignal.timeout(timeoutMs);
  const res = await fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    redirect: 'error',
    signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
  });
  const text = new TextDecoder().decode(await readBounded(res, MAX_ANSWER_BYTES));
  return { status: res.status, text };
};
