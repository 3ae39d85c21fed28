import { createHash, createPublicKey } from 'node:crypto';
import { CliError, readFlagFile, required, withStore, type Command } from '../context.js';
import { readCertificate } from '../notary-certificates.js';

function readP256PublicKey(file: string): string {
  const pem = readFlagFile(file);
  try {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
      throw new CliError('the notary key must be an EC P-256 key (SIM-ECDSA-v1 seals are ES256)');
    }
    return key.export({ format: 'pem', type: 'spki' }).toString();
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`${file} is not a PEM public (or private) key`);
  }
}

const add: Command = async (ctx) => {
  const { flags } = ctx;
  const state = required(flags.string('state'), 'state').toUpperCase();
  if (!/^[A-Z]{2}$/.test(state)) throw new CliError('--state must be a 2-letter code');
  const expires = required(flags.string('expires'), 'expires');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(expires) || Number.isNaN(Date.parse(expires))) {
    throw new CliError('--expires must be a date YYYY-MM-DD');
  }
  const certificateFile = flags.string('certificate');
  const certificate =
    certificateFile === undefined ? undefined : readCertificate(certificateFile, '--certificate');
  const keyFile = flags.string('public-key-file');
  if (keyFile === undefined && !certificate) {
    throw new CliError('give --public-key-file, --certificate or both');
  }
  const notary = {
    tenant: required(flags.string('tenant'), 'tenant'),
    notaryId: required(flags.string('id'), 'id'),
    displayName: required(flags.string('name'), 'name'),
    commissionState: state,
    commissionExpires: expires,
    // without a seal key, the certificate's key stands (a SIM-ECDSA-v1 seal needs it to be P-256)
    publicKeyPem:
      keyFile !== undefined
        ? readP256PublicKey(keyFile)
        : String(certificate?.x509.publicKey.export({ format: 'pem', type: 'spki' })),
    certificateDer: certificate?.der,
  };
  await withStore(ctx, (repos) => repos.notaries.upsert(notary));
  const pinned = certificate
    ? ` with certificate ${quoteSubject(certificate.x509.subject)} (sha256:${certificate.x509.fingerprint256.replaceAll(':', '').toLowerCase()})`
    : '';
  ctx.out(`notary ${notary.notaryId} registered for tenant ${notary.tenant}${pinned}`);
};

/** A certificate subject on one line. */
function quoteSubject(subject: string): string {
  return JSON.stringify(subject.split('\n').join(', '));
}

const list: Command = async (ctx) => {
  const tenant = ctx.flags.string('tenant');
  const notaries = await withStore(ctx, (repos) => repos.notaries.list(tenant));
  if (ctx.flags.boolean('json')) {
    ctx.out(JSON.stringify(notaries));
    return;
  }
  for (const n of notaries) {
    const cert = n.certificateDer
      ? `  certificate sha256:${createHash('sha256').update(Buffer.from(n.certificateDer, 'base64')).digest('hex')}`
      : '';
    ctx.out(
      `${n.tenant}  ${n.notaryId}  ${n.displayName}  ${n.commissionState}  expires ${n.commissionExpires}${cert}`,
    );
  }
};

const remove: Command = async (ctx) => {
  const tenant = required(ctx.flags.string('tenant'), 'tenant');
  const id = required(ctx.flags.string('id'), 'id');
  const removed = await withStore(ctx, (repos) => repos.notaries.remove(tenant, id));
  if (!removed) throw new CliError(`no notary ${id} for tenant ${tenant}`, 1);
  ctx.out(`notary ${id} removed from tenant ${tenant}`);
};

export const notaryCommands = { add, list, remove };
