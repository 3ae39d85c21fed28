import type { Knex } from 'knex';

/**
 * Renewal of PDF receipts' archive time-stamps (PAdES B-LTA): `archive_expires_at` is when the
 * newest document time-stamp of a kept PDF stops being relied on (its authority's certificate
 * ends, or its algorithm's published end), null for a PDF without one; the renewal job reads the
 * rows due by that column's index. A renewed PDF takes the row's place and the file it replaces
 * is kept in `receipt_pdf_versions`, so every file the service handed out stays on record.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('receipt_pdfs', (t) => {
    t.timestamp('archive_expires_at', { useTz: true }).nullable();
    t.index(['archive_expires_at'], 'receipt_pdfs_archive_expires_at');
  });
  await knex.schema.createTable('receipt_pdf_versions', (t) => {
    t.bigIncrements('id').primary();
    t.text('receipt_id').notNullable();
    t.text('state').notNullable();
    t.text('receipt_hash').notNullable();
    t.binary('pdf').notNullable();
    t.timestamp('replaced_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['receipt_id', 'state'], 'receipt_pdf_versions_receipt');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('receipt_pdf_versions');
  await knex.schema.alterTable('receipt_pdfs', (t) => {
    t.dropIndex(['archive_expires_at'], 'receipt_pdfs_archive_expires_at');
    t.dropColumn('archive_expires_at');
  });
}
