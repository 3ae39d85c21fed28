import type { Knex } from 'knex';
import type { Ed25519PublicJwk } from '../receipts/signer.js';

export interface SigningKeyRecord {
  jwk: Ed25519PublicJwk;
  createdAt: Date;
  retiredAt: Date | null;
}

interface SigningKeyRow {
  kid: string;
  public_jwk: Ed25519PublicJwk;
  created_at: Date;
  retired_at: Date | null;
}

/** Public keys only: the key ring for verification and the JWKS. Private keys never enter the store. */
export class SigningKeyRepository {
  constructor(private readonly knex: Knex) {}

  async list(): Promise<SigningKeyRecord[]> {
    const rows = await this.knex<SigningKeyRow>('signing_keys').orderBy('created_at', 'asc');
    return rows.map((r) => ({
      jwk: r.public_jwk,
      createdAt: r.created_at,
      retiredAt: r.retired_at,
    }));
  }

  /** Raw 32-byte public keys of the whole ring (for checkpoint signatures). */
  async publicKeyBytes(): Promise<Uint8Array[]> {
    return (await this.list()).map((k) => new Uint8Array(Buffer.from(k.jwk.x, 'base64url')));
  }

  /** Adds the key if the ring does not have it yet; returns whether it is retired. */
  async ensureRegistered(jwk: Ed25519PublicJwk): Promise<{ retired: boolean }> {
    await this.knex<SigningKeyRow>('signing_keys')
      .insert({ kid: jwk.kid, public_jwk: jwk })
      .onConflict('kid')
      .ignore();
    const row = await this.knex<SigningKeyRow>('signing_keys').where({ kid: jwk.kid }).first();
    return { retired: row?.retired_at != null };
  }

  /** Registers `jwk` as the active key and retires every other one, atomically. */
  async rotateTo(jwk: Ed25519PublicJwk): Promise<void> {
    await this.knex.transaction(async (trx) => {
      await trx<SigningKeyRow>('signing_keys')
        .whereNot({ kid: jwk.kid })
        .whereNull('retired_at')
        .update({ retired_at: trx.fn.now() as unknown as Date });
      await trx<SigningKeyRow>('signing_keys')
        .insert({ kid: jwk.kid, public_jwk: jwk })
        .onConflict('kid')
        .merge({ retired_at: null });
    });
  }
}
