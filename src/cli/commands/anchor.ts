import { CliError, withServices, type Command } from '../context.js';

/** Seals every pending receipt into a signed checkpoint now (the server also does this on a timer). */
export const anchorRunCommand: Command = async (ctx) => {
  if (ctx.config.signing.disabled)
    throw new CliError('anchoring needs a signing key (SIGNING_DISABLED is set)');
  const result = await withServices(
    ctx,
    async (services) => {
      await services.registerSigner();
      const sealed = await services.anchoring.sealAll();
      return { ...sealed, witnesses: await services.anchoring.cosignLatest() };
    },
    { loadScreening: false },
  );
  ctx.out(
    `sealed ${result.sealed} log entries (receipts and revocations); log tree size ${result.treeSize}`,
  );
  for (const w of result.witnesses) {
    ctx.out(`witness ${w.witness}: ${w.ok ? 'cosigned' : 'did not cosign'} (${w.detail})`);
  }
};
