import type { CosignatureNotices, SealNotices } from '../receipts/ports.js';
import type { DeliveryNotices } from '../webhooks/ports.js';
import type { ChangeFeed } from './change-feed.js';

/**
 * Seal notices from the change feed: a seal by this process announces `receipts:sealed` when it
 * commits (LogRepository); one by another replica or the CLI arrives as the `log_leaves` trigger's
 * NOTIFY (migration 023) on the feed's LISTEN connection (PostgreSQL) or through PGlite's
 * in-process notifications (embedded). A change to the receipts without detail (a position
 * rewritten or deleted) and the feed's reconnect (`*`: changes may have been missed) wake the
 * waiters too; a single receipt's change (a revocation) does not place anything in the log.
 */
export class FeedSealNotices implements SealNotices {
  constructor(private readonly feed: ChangeFeed) {}

  get live(): boolean {
    return this.feed.live;
  }

  subscribe(fn: () => void): () => void {
    return this.feed.onChange((table, detail) => {
      if (table === '*' || (table === 'receipts' && (detail === undefined || detail === 'sealed')))
        fn();
    });
  }
}

/**
 * Cosignature notices from the change feed: `LogRepository.recordCosignature` NOTIFYs
 * `log_cosignatures` in its transaction, which every replica's feed delivers after the commit
 * (this one's included); the feed's reconnect (`*`) wakes the waiters too.
 */
export class FeedCosignatureNotices implements CosignatureNotices {
  constructor(private readonly feed: ChangeFeed) {}

  get live(): boolean {
    return this.feed.live;
  }

  subscribe(fn: () => void): () => void {
    return this.feed.onChange((table) => {
      if (table === '*' || table === 'log_cosignatures') fn();
    });
  }
}

/**
 * Webhook delivery notices from the change feed: the `webhook_deliveries` trigger's NOTIFY
 * (migration 029), from this process or another, after the commit; the feed's reconnect (`*`)
 * wakes the dispatcher too.
 */
export class FeedDeliveryNotices implements DeliveryNotices {
  constructor(private readonly feed: ChangeFeed) {}

  get live(): boolean {
    return this.feed.live;
  }

  subscribe(fn: () => void): () => void {
    return this.feed.onChange((table) => {
      if (table === '*' || table === 'webhook_deliveries') fn();
    });
  }
}
