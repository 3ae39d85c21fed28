import type { Knex } from 'knex';

/**
 * The log holds entries of two formats (docs/log.md): receipt entries and revocation entries.
 * `entry` keeps each entry's bytes (what entry bundles serve); `revokes` names the receipt a
 * revocation entry revokes, `receipt_id` the receipt of a receipt entry: exactly one is set.
 * Revocations made before this migration get their entry now, in the order they were made,
 * built from the audit row exactly as `revocationEntry` (src/receipts/log-entries.ts) builds it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table log_entries alter column receipt_id drop not null');
  await knex.schema.alterTable('log_entries', (t) => {
    t.binary('entry');
    t.uuid('revokes').unique().references('receipts.id');
  });
  await knex.raw(`update log_entries l set entry = decode(substr(r.receipt_hash, 8), 'hex')
    from receipts r where r.id = l.receipt_id`);
  await knex.raw('alter table log_entries alter column entry set not null');
  await knex.raw(`alter table log_entries add constraint log_entries_one_subject
    check ((receipt_id is null) <> (revokes is null))`);
  await knex.raw(`
    insert into log_entries (revokes, entry, leaf_hash)
    select e.receipt_id, e.entry, sha256('\\x00'::bytea || e.entry)
    from (
      select v.receipt_id, v.revoked_at, convert_to(
        'verification-receipt-revocation/v1' || chr(10) ||
        'receipt-hash ' || r.receipt_hash || chr(10) ||
        'receipt-id ' || v.receipt_id::text || chr(10) ||
        'issuer ' || v.issuer_id || chr(10) ||
        'issuer-key ' || coalesce(i.public_key, '') || chr(10) ||
        'timestamp ' || v.signature_timestamp || chr(10) ||
        'signature ' || v.issuer_signature || chr(10), 'UTF8') as entry
      from revocations v
      join receipts r on r.id = v.receipt_id
      left join issuers i on i.issuer_id = v.issuer_id
    ) e
    order by e.revoked_at, e.receipt_id`);
}

export async function down(knex: Knex): Promise<void> {
  await knex('log_entries').whereNotNull('revokes').delete();
  await knex.raw('alter table log_entries drop constraint log_entries_one_subject');
  await knex.schema.alterTable('log_entries', (t) => {
    t.dropColumn('revokes');
    t.dropColumn('entry');
  });
  await knex.raw('alter table log_entries alter column receipt_id set not null');
}
