import { createSeal, SealInputError } from '../../receipts/seal.js';
import { CliError, readFlagFile, required, type Command } from '../context.js';

/** Makes a SIM-ECDSA-v1 seal (ES256 compact JWS) for tests and demos. Needs no store. */
export const sealCreateCommand: Command = async (ctx) => {
  const { flags } = ctx;
  const docHash = required(flags.string('doc-hash'), 'doc-hash');
  if (!/^sha256:[0-9a-f]{64}$/.test(docHash))
    throw new CliError('--doc-hash must be sha256:<64 hex>');
  const keyFile = required(flags.string('key-file'), 'key-file');
  const pem = readFlagFile(keyFile);
  try {
    ctx.out(
      createSeal(
        {
          notaryId: required(flags.string('notary-id'), 'notary-id'),
          commissionState: required(flags.string('state'), 'state').toUpperCase(),
          docHash,
        },
        pem,
      ),
    );
  } catch (err) {
    if (err instanceof CliError) throw err;
    if (err instanceof SealInputError) throw new CliError(err.message);
    throw new CliError(`${keyFile} is not an EC P-256 private key (PEM)`);
  }
};
