import { decodeBase64url } from '../../receipts/base64url.js';
import { rawEd25519PublicKey, signRevocation } from '../../receipts/revocation.js';
import {
  CliError,
  readFlagFile,
  required,
  withStore,
  type Command,
  type ParsedFlags,
} from '../context.js';

function publicKeyFrom(flags: ParsedFlags): string {
  const given = flags.string('public-key');
  if (given !== undefined) {
    const raw = decodeBase64url(given);
    if (raw?.length !== 32) {
      throw new CliError('--public-key must be a raw 32-byte Ed25519 key, base64url');
    }
    return raw.toString('base64url');
  }
  const file = required(flags.string('public-key-file'), 'public-key or --public-key-file');
  const pem = readFlagFile(file);
  if (/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(pem)) {
    throw new CliError(
      `${file} holds a private key: register the issuer's public key only ` +
        `(openssl pkey -in ${file} -pubout -out issuer.pub.pem) and keep the private key with the issuer`,
    );
  }
  try {
    return rawEd25519PublicKey(pem);
  } catch {
    throw new CliError(`${file} is not a readable Ed25519 PEM key`);
  }
}

const add: Command = async (ctx) => {
  const { flags } = ctx;
  const issuer = {
    tenant: required(flags.string('tenant'), 'tenant'),
    issuerId: required(flags.string('id'), 'id'),
    publicKey: publicKeyFrom(flags),
  };
  const result = await withStore(ctx, async (repos) => {
    const existing = await repos.issuers.find(issuer.issuerId);
    if (existing && existing.tenant !== issuer.tenant) return existing.tenant;
    return (await repos.issuers.add(issuer)) === 'added' ? undefined : 'another tenant';
  });
  if (result !== undefined) {
    throw new CliError(
      `issuer ${issuer.issuerId} is registered for tenant ${result}; an issuer id belongs to one ` +
        `tenant: remove it first (issuers remove --id ${issuer.issuerId}) or choose another id`,
    );
  }
  ctx.out(`issuer ${issuer.issuerId} may revoke receipts of tenant ${issuer.tenant}`);
};

const list: Command = async (ctx) => {
  const tenant = ctx.flags.string('tenant');
  const issuers = await withStore(ctx, (repos) => repos.issuers.list(tenant));
  for (const i of issuers) ctx.out(`${i.tenant}  ${i.issuerId}  ${i.publicKey}`);
};

const remove: Command = async (ctx) => {
  const id = required(ctx.flags.string('id'), 'id');
  if (!(await withStore(ctx, (repos) => repos.issuers.remove(id)))) {
    throw new CliError(`no issuer ${id}`, 1);
  }
  ctx.out(`issuer ${id} removed`);
};

export const issuerCommands = { add, list, remove };

/** Prints the three revoke headers, signed now, for use with curl. Needs no store. */
export const signRevocationCommand: Command = async (ctx) => {
  const { flags } = ctx;
  const receiptId = required(flags.string('receipt'), 'receipt');
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(receiptId)) {
    throw new CliError('--receipt must be a receipt uuid');
  }
  const keyFile = required(flags.string('key-file'), 'key-file');
  const pem = readFlagFile(keyFile);
  const timestamp = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  let headers;
  try {
    headers = signRevocation(pem, required(flags.string('issuer'), 'issuer'), receiptId, timestamp);
  } catch {
    throw new CliError(`${keyFile} is not an Ed25519 private key (PKCS#8 PEM)`);
  }
  if (flags.boolean('json')) {
    ctx.out(
      JSON.stringify({
        'x-issuer-id': headers.issuerId,
        'x-signature-timestamp': headers.timestamp,
        'x-issuer-signature': headers.signature,
      }),
    );
    return;
  }
  ctx.out(`x-issuer-id: ${headers.issuerId}`);
  ctx.out(`x-signature-timestamp: ${headers.timestamp}`);
  ctx.out(`x-issuer-signature: ${headers.signature}`);
};
