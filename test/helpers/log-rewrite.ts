import type { Knex } from 'knex';

/**
 * What an operator who rewrites the log's history would do: forget every checkpoint (and its
 * cosignatures), subtree hash and leaf position, and queue the same entries again in reverse
 * order (`seq` negated), so that the next seal signs another tree over the same entries.
 */
export async function rewriteLogInReverse(knex: Knex): Promise<void> {
  await knex.transaction(async (trx) => {
    await trx('log_cosignatures').delete();
    await trx('log_checkpoints').delete();
    await trx('log_nodes').delete();
    await trx('log_leaves').delete();
    await trx('log_pending').delete();
    await trx.raw('update log_entries set seq = -seq');
    await trx.raw('insert into log_pending (seq) select seq from log_entries');
  });
}
