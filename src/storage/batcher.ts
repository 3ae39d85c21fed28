import { isStoreUnavailable } from './unavailable.js';

/**
 * Group commit: concurrent writes coalesce into one statement (one round trip, one commit, one
 * WAL flush for the whole batch). While a batch is being written the next requests queue, and
 * the next batch takes up to `maxBatch` of them. Before taking a batch the writer waits for the
 * end of the current event-loop iteration (`setImmediate`, no timer): requests read from other
 * sockets in the same iteration join it. That wait is what makes batches form on the embedded
 * store, whose statements run on this thread (without it they averaged two receipts; with it
 * six to ten under load, at about 0.2 ms of the store's time per receipt instead of 0.6);
 * an idle service adds one loop iteration, well under a millisecond. Every caller is answered
 * only after its own batch committed. A batch that fails for a reason other than the
 * store being unavailable is retried one item at a time, so a bad item fails only its caller.
 */
export class Batcher<I, R> {
  private readonly queue: { item: I; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  private draining = false;

  constructor(
    private readonly writeBatch: (items: I[]) => Promise<R[]>,
    private readonly maxBatch: number,
  ) {}

  submit(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) {
        await nextIteration();
        const batch = this.queue.splice(0, this.maxBatch);
        await this.write(batch);
      }
    } finally {
      this.draining = false;
    }
  }

  private async write(batch: typeof this.queue): Promise<void> {
    try {
      const results = await this.writeBatch(batch.map((b) => b.item));
      batch.forEach((b, i) => b.resolve(results[i] as R));
    } catch (err) {
      if (batch.length === 1 || isStoreUnavailable(err)) {
        for (const b of batch) b.reject(err);
        return;
      }
      for (const b of batch) {
        try {
          const [result] = await this.writeBatch([b.item]);
          b.resolve(result as R);
        } catch (one) {
          b.reject(one);
        }
      }
    }
  }
}

const nextIteration = () => new Promise<void>((resolve) => setImmediate(resolve));
