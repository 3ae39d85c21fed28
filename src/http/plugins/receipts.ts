import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.js';
import { DEFAULT_TRUSTED_EVENTS } from '../../receipts/checks/ci.js';
import { ReceiptIssuer } from '../../receipts/issuance.js';
import { KeyRingSource } from '../../receipts/keyring.js';
import { loadKeySource } from '../../receipts/key-source.js';
import { ScreeningLists } from '../../receipts/screening/index.js';
import { createSigner, type Signer } from '../../receipts/signer.js';

declare module 'fastify' {
  interface FastifyInstance {
    issuer: ReceiptIssuer;
    /** Undefined when SIGNING_DISABLED=true: receipts are then stored unsigned (legacy-unsigned). */
    signer: Signer | undefined;
    /** Every public signing key, active and retired, for later verification. */
    keyRing: KeyRingSource;
  }
}

/** The receipt domain wired to the store: signer, screening lists, issuer. */
export default fp(
  async function receipts(app: FastifyInstance, opts: { config: Config }) {
    const { config } = opts;
    const signer = config.signing.disabled ? undefined : createSigner(loadKeySource(config).pem);
    if (signer) {
      const { retired } = await app.repos.signingKeys.ensureRegistered(signer.publicJwk);
      if (retired)
        app.log.warn({ kid: signer.kid }, 'signing with a key that has been rotated out');
    } else {
      app.log.warn('SIGNING_DISABLED=true: receipts are issued unsigned');
    }
    const screening = await ScreeningLists.load(config.screeningListsDir);
    app.decorate('signer', signer);
    app.decorate(
      'keyRing',
      new KeyRingSource(async () => (await app.repos.signingKeys.list()).map((k) => k.jwk)),
    );
    app.decorate(
      'issuer',
      new ReceiptIssuer({
        knex: app.db.knex,
        receipts: app.repos.receipts,
        notaries: app.repos.notaries,
        screening,
        signer,
        trustedEvents: config.ciTrustedEvents ?? [...DEFAULT_TRUSTED_EVENTS],
      }),
    );
  },
  { name: 'receipts', dependencies: ['storage'] },
);
