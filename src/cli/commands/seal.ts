import { createSeal, SealInputError } from '../../receipts/seal.js';
import { CliError, flags, readFlagFile, required, type Command } from '../context.js';

/** Makes a SIM-ECDSA-v1 seal (ES256 compact JWS) for tests and demos. Needs no store. */
export const sealCreateCommand: Command = async (ctx) => {
  const { values } = flags(ctx, {
    'notary-id': { type: 'string' },
    state: { type: 'string' },
    'doc-hash': { type: 'string' },
    'key-file': { type: 'string' },
  });
  const docHash = required(values['doc-hash'], 'doc-hash');
  if (!/^sha256:[0-9a-f]{64}$/.test(docHash))
    throw new CliError('--doc-hash must be sha256:<64 hex>');
  const keyFile = required(values['key-file'], 'key-file');
  const pem = readFlagFile(keyFile);
  try {
    ctx.out(
      createSeal(
        {
          notaryId: required(values['notary-id'], 'notary-id'),
          commissionState: required(values.state, 'state').toUpperCase(),
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
