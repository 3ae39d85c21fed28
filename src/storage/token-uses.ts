import type { Knex } from 'knex';
import type { TokenUse, TokenUseStore } from '../receipts/ports.js';

/**
 * Single use of CI OIDC tokens (`oidc_token_uses`): the first use of an (issuer, jti) wins by
 * the primary key, so two replicas racing with one token cannot both accept it. A use is kept
 * until its `expiresAt` (the domain sets it past the token's `exp` by the verifier's clock skew)
 * and swept as new uses arrive after it: a token that no longer verifies needs no row.
 */
export class TokenUseRepository implements TokenUseStore {
  constructor(private readonly knex: Knex) {}

  async claim(use: TokenUse): Promise<'first' | 'repeat' | 'replayed'> {
    await this.knex('oidc_token_uses').where('expires_at', '<', new Date()).delete();
    const inserted = await this.knex('oidc_token_uses')
      .insert({
        issuer: use.issuer,
        jti: use.jti,
        tenant: use.tenant,
        external_id: use.externalId,
        expires_at: use.expiresAt,
      })
      .onConflict(['issuer', 'jti'])
      .ignore()
      .returning(['jti']);
    if (inserted.length > 0) return 'first';
    const prior = (await this.knex('oidc_token_uses')
      .where({ issuer: use.issuer, jti: use.jti })
      .first('tenant', 'external_id')) as { tenant: string; external_id: string } | undefined;
    return prior?.tenant === use.tenant && prior.external_id === use.externalId
      ? 'repeat'
      : 'replayed';
  }
}
