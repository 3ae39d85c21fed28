/**
 * Fair share of the event loop under saturation. An issuance or a PDF rendering is a few
 * milliseconds of synchronous CPU; when fifty of them become ready in the same loop iteration
 * (a group-commit batch answers fifty clients at once, and they all send their next request
 * together) they would run back to back and hold the loop for 100 ms or more, so a health probe
 * or any cheap request arriving meanwhile waits behind all of them.
 *
 * The gate lets at most `perTurn` heavy handlers start per loop iteration; the rest wait, FIFO,
 * for the following iterations (released from a `setImmediate` callback, which runs once per
 * iteration after the poll phase). Between two releases the loop polls sockets, so cheap
 * requests and database answers are served every few milliseconds. Throughput is unchanged: the
 * gate only reorders work that was queued anyway, and when the service is not saturated nothing
 * waits.
 */
export class TurnGate {
  private startedThisTurn = 0;
  private readonly waiting: (() => void)[] = [];
  private head = 0;
  private scheduled = false;

  constructor(private readonly perTurn: number) {
    if (!Number.isInteger(perTurn) || perTurn < 1) throw new RangeError('perTurn must be >= 1');
  }

  /** Resolves when the caller may start its heavy section (at once if this turn has room). */
  enter(): Promise<void> {
    this.schedule();
    if (this.pending() === 0 && this.startedThisTurn < this.perTurn) {
      this.startedThisTurn++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Callers waiting for a later turn. */
  pending(): number {
    return this.waiting.length - this.head;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.nextTurn);
  }

  private readonly nextTurn = (): void => {
    this.scheduled = false;
    this.startedThisTurn = 0;
    while (this.startedThisTurn < this.perTurn && this.pending() > 0) {
      this.startedThisTurn++;
      const release = this.waiting[this.head] as () => void;
      this.head++;
      release();
    }
    if (this.head === this.waiting.length || this.head > 1024) {
      this.waiting.splice(0, this.head);
      this.head = 0;
    }
    // the next iteration resets the count again, so that callers entering there are admitted
    if (this.startedThisTurn > 0) this.schedule();
  };
}
