import type { Knex } from 'knex';
import type { KeyEndorsement, SigningKeyRecord, SigningKeyStore } from '../receipts/ports.js';
import type { Ed25519PublicJwk } from '../receipts/signer.js';

interface SigningKeyRow {
  kid: string;
  public_jwk: Ed25519PublicJwk;
  created_at: Date;
  retired_at: Date | null;
}

interface EndorsementRow {
  subject_kid: string;
  endorser_kid: string;
  signature: string;
}

/**
 * Public keys only, with the endorsements that make them trusted: the key ring for verification
 * and the JWKS. Private keys never enter the store.
 */
export class SigningKeyRepository implements SigningKeyStore {
  constructor(private readonly knex: Knex) {}

  async list(): Promise<SigningKeyRecord[]> {
    const rows = await this.knex<SigningKeyRow>('signing_keys').orderBy('created_at', 'asc');
    return rows.map((r) => ({
      jwk: r.public_jwk,
      createdAt: r.created_at,
      retiredAt: r.retired_at,
    }));
  }

  async endorsements(): Promise<KeyEndorsement[]> {
    const rows = await this.knex<EndorsementRow>('signing_key_endorsements').orderBy([
      'subject_kid',
      'endorser_kid',
    ]);
    return rows.map((r) => ({
      subjectKid: r.subject_kid,
      endorserKid: r.endorser_kid,
      signature: r.signature,
    }));
  }

  async ensureRegistered(jwk: Ed25519PublicJwk): Promise<{ retired: boolean }> {
    await this.knex<SigningKeyRow>('signing_keys')
      .insert({ kid: jwk.kid, public_jwk: jwk })
      .onConflict('kid')
      .ignore();
    const row = await this.knex<SigningKeyRow>('signing_keys').where({ kid: jwk.kid }).first();
    return { retired: row?.retired_at != null };
  }

  async rotateTo(jwk: Ed25519PublicJwk, endorsements: KeyEndorsement[]): Promise<void> {
    await this.knex.transaction(async (trx) => {
      await trx<SigningKeyRow>('signing_keys')
        .whereNot({ kid: jwk.kid })
        .whereNull('retired_at')
        .update({ retired_at: trx.fn.now() as unknown as Date });
      await trx<SigningKeyRow>('signing_keys')
        .insert({ kid: jwk.kid, public_jwk: jwk })
        .onConflict('kid')
        .merge({ retired_at: null });
      await insertEndorsements(trx, endorsements);
    });
  }

  async addEndorsements(endorsements: KeyEndorsement[]): Promise<void> {
    await insertEndorsements(this.knex, endorsements);
  }
}

async function insertEndorsements(db: Knex | Knex.Transaction, list: KeyEndorsement[]) {
  if (list.length === 0) return;
  await db<EndorsementRow>('signing_key_endorsements')
    .insert(
      list.map((e) => ({
        subject_kid: e.subjectKid,
        endorser_kid: e.endorserKid,
        signature: e.signature,
      })),
    )
    .onConflict(['subject_kid', 'endorser_kid'])
    .merge(['signature']);
}
