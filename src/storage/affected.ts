/**
 * Rows affected by a knex `delete()`: pg gives a number, knex-pglite (0.14) gives the raw result
 * object `{ rowCount, affectedRows }`. One reading for both stores.
 */
export function affectedRows(result: unknown): number {
  if (typeof result === 'number') return result;
  if (typeof result === 'object' && result !== null) {
    const { rowCount, affectedRows: affected } = result as {
      rowCount?: unknown;
      affectedRows?: unknown;
    };
    if (typeof rowCount === 'number') return rowCount;
    if (typeof affected === 'number') return affected;
  }
  return 0;
}
