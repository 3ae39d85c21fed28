import { defaultKeyFile, generateSigningKeyPem, writeKeyFile } from '../../receipts/key-source.js';
import { createSigner } from '../../receipts/signer.js';
import { CliError, flags, withStore, type Command } from '../context.js';

/**
 * Generates a new Ed25519 key, writes it where the server reads its key from (or --out), and
 * makes it the active key; older public keys stay in the ring so their receipts still verify.
 * The old private key file is overwritten: it is never needed again. Restart the server after.
 */
const rotate: Command = async (ctx) => {
  const { values } = flags(ctx, { out: { type: 'string' } });
  const out =
    (values.out as string | undefined) ??
    (ctx.config.signing.key ? undefined : defaultKeyFile(ctx.config));
  if (!out) {
    throw new CliError(
      'SIGNING_KEY is set inline: pass --out FILE and point SIGNING_KEY_FILE at it',
    );
  }
  const pem = generateSigningKeyPem();
  const signer = createSigner(pem);
  await withStore(ctx, async (repos) => {
    writeKeyFile(out, pem);
    await repos.signingKeys.rotateTo(signer.publicJwk);
  });
  ctx.out(`new active signing key ${signer.kid} written to ${out} (mode 0600)`);
  ctx.out('restart the server to sign with it; earlier receipts keep verifying with the old key');
};

const list: Command = async (ctx) => {
  const keys = await withStore(ctx, (repos) => repos.signingKeys.list());
  for (const k of keys) {
    const state = k.retiredAt ? `retired ${k.retiredAt.toISOString()}` : 'active';
    ctx.out(`${k.jwk.kid}  created ${k.createdAt.toISOString()}  ${state}`);
  }
};

export const signingKeyCommands = { rotate, list };
