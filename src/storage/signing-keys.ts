import type { Knex } from 'knex';
import { RowCache, type ChangeFeed } from './change-feed.js';
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
 * and the JWKS. Private keys never enter the store. Both lists are held in memory until a key or
 * an endorsement changes (the change feed, migration 018), so a public route that checks or
 * publishes keys costs no store query.
 */
export class SigningKeyRepository implements SigningKeyStore {
  private readonly keys: RowCache<SigningKeyRecord[]>;
  private readonly endorsed: RowCache<KeyEndorsement[]>;

  constructor(
    private readonly knex: Knex,
    private readonly changes: ChangeFeed,
  ) {
    this.keys = new RowCache(changes, 'signing_keys', 1);
    this.endorsed = new RowCache(changes, 'signing_key_endorsements', 1);
  }

  async list(): Promise<SigningKeyRecord[]> {
    return (await this.keys.through('all', () => this.readKeys())) ?? [];
  }

  async endorsements(): Promise<KeyEndorsement[]> {
    return (await this.endorsed.through('all', () => this.readEndorsements())) ?? [];
  }

  private async readKeys(): Promise<SigningKeyRecord[]> {
    const rows = await this.knex<SigningKeyRow>('signing_keys').orderBy('created_at', 'asc');
    return rows.map((r) => ({
      jwk: r.public_jwk,
      createdAt: r.created_at,
      retiredAt: r.retired_at,
    }));
  }

  private async readEndorsements(): Promise<KeyEndorsement[]> {
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
    this.changes.announce('signing_keys');
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
    this.changes.announce('signing_keys');
    this.changes.announce('signing_key_endorsements');
  }

  async addEndorsements(endorsements: KeyEndorsement[]): Promise<void> {
    await insertEndorsements(this.knex, endorsements);
    this.changes.announce('signing_key_endorsements');
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
