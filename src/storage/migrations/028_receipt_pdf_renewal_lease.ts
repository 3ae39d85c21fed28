import type { Knex } from 'knex';

/**
 * One replica renews a kept PDF at a time: the renewal job claims due rows by setting
 * `renewal_lease_until` (a conditional update over `for update skip locked`), so a second
 * replica's claim skips rows another holds; a renewal clears it, and a renewal that failed keeps
 * it until it passes, which spaces the retries.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('receipt_pdfs', (t) => {
    t.timestamp('renewal_lease_until', { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('receipt_pdfs', (t) => {
    t.dropColumn('renewal_lease_until');
  });
}
