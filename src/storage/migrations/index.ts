import type { Knex } from 'knex';
import * as m001 from './001_api_keys.js';
import * as m002 from './002_receipts.js';
import * as m003 from './003_log.js';
import * as m004 from './004_revocation.js';
import * as m005 from './005_key_endorsements.js';
import * as m006 from './006_change_notify.js';
import * as m007 from './007_receipt_hash_index.js';
import * as m008 from './008_log_entry_formats.js';
import * as m009 from './009_witnesses.js';
import * as m010 from './010_tenant_policies.js';
import * as m011 from './011_receipt_list_filters.js';
import * as m012 from './012_tenant_ci_profile.js';
import * as m013 from './013_receipt_state_notify.js';
import * as m014 from './014_receipt_bodies_inline.js';
import * as m015 from './015_log_leaves.js';
import * as m016 from './016_external_id_where_set.js';
import * as m017 from './017_oidc_token_uses.js';
import * as m018 from './018_signing_keys_notify.js';
import * as m019 from './019_receipt_pdfs.js';
import * as m020 from './020_checkpoint_timestamps.js';
import * as m021 from './021_change_notify_schema.js';
import * as m022 from './022_deployment_gates.js';
import * as m023 from './023_receipt_state_detail.js';
import * as m024 from './024_proven_ci_receipts.js';
import * as m025 from './025_webhooks.js';
import * as m026 from './026_notary_certificates.js';
import * as m027 from './027_receipt_pdf_renewal.js';
import * as m028 from './028_receipt_pdf_renewal_lease.js';
import * as m029 from './029_webhook_delivery_notify.js';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Migrations are imported, not globbed from disk, so the same list runs from src/ and dist/. */
const migrations: Record<string, Migration> = {
  '001_api_keys': m001,
  '002_receipts': m002,
  '003_log': m003,
  '004_revocation': m004,
  '005_key_endorsements': m005,
  '006_change_notify': m006,
  '007_receipt_hash_index': m007,
  '008_log_entry_formats': m008,
  '009_witnesses': m009,
  '010_tenant_policies': m010,
  '011_receipt_list_filters': m011,
  '012_tenant_ci_profile': m012,
  '013_receipt_state_notify': m013,
  '014_receipt_bodies_inline': m014,
  '015_log_leaves': m015,
  '016_external_id_where_set': m016,
  '017_oidc_token_uses': m017,
  '018_signing_keys_notify': m018,
  '019_receipt_pdfs': m019,
  '020_checkpoint_timestamps': m020,
  '021_change_notify_schema': m021,
  '022_deployment_gates': m022,
  '023_receipt_state_detail': m023,
  '024_proven_ci_receipts': m024,
  '025_webhooks': m025,
  '026_notary_certificates': m026,
  '027_receipt_pdf_renewal': m027,
  '028_receipt_pdf_renewal_lease': m028,
  '029_webhook_delivery_notify': m029,
};

/** The migrations up to and including `last` (all of them by default). */
function source(last?: string): Knex.MigrationSource<string> {
  return {
    getMigrations: async () =>
      Object.keys(migrations)
        .sort()
        .filter((name) => last === undefined || name <= last),
    getMigrationName: (name) => name,
    getMigration: async (name) => migrations[name] as Migration,
  };
}

/** Applies pending migrations up to `last` (tests of a migration start from the one before). */
export async function migrate(knex: Knex, last?: string): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest({ migrationSource: source(last) })) as [
    number,
    string[],
  ];
  return applied;
}
