/**
 * The opaque page cursor of the keyset-paged lists (receipts, deployment decisions): the last
 * row's (timestamp, uuid) as base64url JSON. A cursor that is not exactly what `encodeCursor`
 * writes decodes to undefined, so the list starts from the newest row and the SQL casts of the
 * keyset condition (`?::timestamptz, ?::uuid`) never see a value they reject.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Only a `Date#toISOString()` value, years 1970-9999 (not '1', Feb 30 or year 0). */
function isIsoTimestamp(value: string): boolean {
  const time = Date.parse(value);
  return /^\d{4}-/.test(value) && time >= 0 && new Date(time).toISOString() === value;
}

export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify([at.toISOString(), id])).toString('base64url');
}

/** The (timestamp, uuid) pair `encodeCursor` wrote, else undefined (start from the newest). */
export function decodeCursor(cursor: string | undefined): [string, string] | undefined {
  if (!cursor) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      isIsoTimestamp(value[0]) &&
      typeof value[1] === 'string' &&
      UUID.test(value[1])
    ) {
      return [value[0], value[1]];
    }
  } catch {
    // not base64url JSON: an unreadable cursor is ignored like any other
  }
  return undefined;
}
