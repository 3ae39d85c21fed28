import {
  defaultKeyFile,
  generateSigningKeyPem,
  writeKeyFile,
} from '../../files/signing-key-file.js';
import { endorse, rotationEndorsements } from '../../receipts/key-trust.js';
import { createSigner } from '../../receipts/signer.js';
import { CliError, withServices, type Command } from '../context.js';

/**
 * Generates a new Ed25519 key, writes it where the server reads its key from (or --out), and
 * makes it the active key. The outgoing key endorses the new one and the new one endorses every
 * key trusted so far (the chain of trust, src/receipts/key-trust.ts), so earlier receipts keep
 * verifying. The old private key file is overwritten: it is never needed again. Restart after.
 */
const rotate: Command = async (ctx) => {
  const out =
    ctx.flags.string('out') ?? (ctx.config.signing.key ? undefined : defaultKeyFile(ctx.config));
  if (!out) {
    throw new CliError(
      'SIGNING_KEY is set inline: pass --out FILE and point SIGNING_KEY_FILE at it',
    );
  }
  const pem = generateSigningKeyPem();
  const incoming = createSigner(pem);
  await withServices(
    ctx,
    async (services) => {
      await services.registerSigner();
      const { trusted } = await services.keyTrust();
      const endorsements = rotationEndorsements(services.signer, incoming, trusted);
      writeKeyFile(out, pem);
      await services.stores.signingKeys.rotateTo(incoming.publicJwk, endorsements);
    },
    { loadScreening: false },
  );
  ctx.out(`new active signing key ${incoming.kid} written to ${out} (mode 0600)`);
  ctx.out('restart the server to sign with it; earlier receipts keep verifying with the old key');
};

/**
 * The active key vouches for a key already in the store that no chain reaches (a ring from
 * before endorsements existed). Only for keys the operator knows to be the service's own.
 */
const endorseKey: Command = async (ctx) => {
  const [kid = ''] = ctx.operands;
  await withServices(
    ctx,
    async (services) => {
      const signer = services.signer;
      if (!signer) throw new CliError('endorsing needs the active signing key');
      const record = (await services.stores.signingKeys.list()).find((k) => k.jwk.kid === kid);
      if (!record) throw new CliError(`no signing key with kid ${kid} in the store`, 1);
      await services.stores.signingKeys.addEndorsements([endorse(signer, record.jwk)]);
    },
    { loadScreening: false },
  );
  ctx.out(`signing key ${kid} endorsed by the active key: it verifies receipts again`);
};

const list: Command = async (ctx) => {
  const { keys, trusted } = await withServices(
    ctx,
    async (services) => ({
      keys: await services.stores.signingKeys.list(),
      trusted: new Set((await services.keyTrust()).trusted.map((k) => k.kid)),
    }),
    { loadScreening: false },
  );
  for (const k of keys) {
    const state = k.retiredAt ? `retired ${k.retiredAt.toISOString()}` : 'active';
    const trust = trusted.has(k.jwk.kid) ? 'trusted' : 'UNTRUSTED (no valid endorsement)';
    ctx.out(`${k.jwk.kid}  created ${k.createdAt.toISOString()}  ${state}  ${trust}`);
  }
};

export const signingKeyCommands = { rotate, list, endorse: endorseKey };
