import type { AnchorService } from '../anchoring/anchor-service.js';
import type { AuditedEntries } from '../anchoring/audited-entries.js';
import { parseRevocationEntry } from './log-entries.js';

/** A revocation entry of the sealed log, as its bytes were verified against the tree. */
export interface LoggedRevocation {
  leafIndex: number;
  entry: Buffer;
}

const REVOCATION_PREFIX = Buffer.from('verification-receipt-revocation/');

/**
 * The log's own index of revocations: every sealed entry that is a revocation, by the receipt
 * hash its bytes name. Built from the entries as checked against the signed checkpoint
 * (`AuditedEntries`), never from the store's `revokes` column or revocation rows, and kept in
 * this process: a revocation seen once stays known here even when its rows are deleted later.
 */
export class LoggedRevocations {
  private readonly byHash = new Map<string, LoggedRevocation[]>();
  private readonly entries: AuditedEntries<{ receiptHash: string } & LoggedRevocation>;

  constructor(anchoring: Pick<AnchorService, 'auditedEntries'>) {
    this.entries = anchoring.auditedEntries(
      (entry, leafIndex) => {
        if (!Buffer.from(entry.subarray(0, REVOCATION_PREFIX.length)).equals(REVOCATION_PREFIX)) {
          return undefined;
        }
        const statement = parseRevocationEntry(entry);
        // bytes that are not a revocation entry name no receipt: the log format check is the
        // log monitor's; here only what names a receipt matters
        return statement
          ? { receiptHash: statement.receiptHash, leafIndex, entry: Buffer.from(entry) }
          : undefined;
      },
      (items) => {
        for (const { receiptHash, leafIndex, entry } of items) {
          const known = this.byHash.get(receiptHash) ?? [];
          known.push({ leafIndex, entry });
          this.byHash.set(receiptHash, known);
        }
      },
    );
  }

  /**
   * The sealed revocation entries naming `receiptHash`, up to the latest signed checkpoint;
   * throws LogEntriesTampered when the stored entries do not give that checkpoint's root.
   */
  async of(receiptHash: string): Promise<LoggedRevocation[]> {
    await this.entries.catchUp();
    return this.byHash.get(receiptHash) ?? [];
  }
}
