import { AnchorService } from '../../anchoring/anchor-service.js';
import { loadKeySource } from '../../receipts/key-source.js';
import { createSigner } from '../../receipts/signer.js';
import { CliError, withStore, type Command } from '../context.js';

/** Seals every pending receipt into a signed checkpoint now (the server also does this on a timer). */
export const anchorRunCommand: Command = async (ctx) => {
  if (ctx.config.signing.disabled)
    throw new CliError('anchoring needs a signing key (SIGNING_DISABLED is set)');
  const signer = createSigner(loadKeySource(ctx.config).pem);
  const result = await withStore(ctx, async (repos) => {
    await repos.signingKeys.ensureRegistered(signer.publicJwk);
    const service = new AnchorService(repos.log, signer, ctx.config.logOrigin, () =>
      repos.signingKeys.publicKeyBytes(),
    );
    return service.sealAll();
  });
  ctx.out(`sealed ${result.sealed} receipt(s); log tree size ${result.treeSize}`);
};
