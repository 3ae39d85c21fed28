import { createPublicKey } from 'node:crypto';
import { parseJsonBounded } from '../json.js';
import { parseLogPolicy } from '../log/policy.js';
import { parseVerifierKey } from '../log/note.js';
import { akpKey, jwkKey } from '../primitives.js';
import {
  certificateFingerprint,
  certificatesFromPem,
  parseCertificate,
} from '../timestamp/x509.js';
import type { PinnedLog, TrustRoot } from '../trust.js';
import { fetchBounded, fetchJson, FetchError } from './fetch.js';
import { readFileBounded } from './files.js';
import { Usage, type Options } from './options.js';

/**
 * The trust root from the command line: never from the file being verified. `--online URL`
 * fetches that service's JWKS and log policy once, pins them, and says so.
 */

/** Largest local file of keys or policy read (bytes). */
const MAX_TRUST_FILE_BYTES = 256 * 1024;

const readSmall = (file: string): string =>
  readFileBounded(file, MAX_TRUST_FILE_BYTES, 'a key or policy file').toString('utf8');

function keysOfJwks(set: unknown, where: string): Uint8Array[] {
  const list = (set as { keys?: unknown } | null)?.keys;
  const keys = (Array.isArray(list) ? list : [])
    .map(jwkKey)
    .filter((k): k is Uint8Array => k !== undefined);
  if (keys.length === 0) throw new Usage(`${where} holds no Ed25519 key`);
  return keys;
}

/** The ML-DSA-44 (AKP) keys of a JWK Set, for receipts' post-quantum signatures. */
function pqKeysOfJwks(set: unknown): Uint8Array[] {
  const list = (set as { keys?: unknown } | null)?.keys;
  return (Array.isArray(list) ? list.slice(0, 1000) : [])
    .map(akpKey)
    .filter((k): k is Uint8Array => k !== undefined);
}

/** The Ed25519 keys of a JWK Set's text; a Usage error (exit 2) when it holds none. */
export function jwksFromText(text: string, where: string): Uint8Array[] {
  const read = parseJsonBounded(text);
  if (!read.ok) throw new Usage(`${where}: not a JSON JWK Set`);
  return keysOfJwks(read.value, where);
}

/** The Ed25519 and ML-DSA-44 keys of --jwks (a URL or a file). */
async function jwksKeys(jwks: string): Promise<{ keys: Uint8Array[]; pq: Uint8Array[] }> {
  let set: unknown;
  if (/^[a-z]+:\/\//i.test(jwks)) set = await fetchJson(jwks);
  else {
    const read = parseJsonBounded(readSmall(jwks));
    if (!read.ok) throw new Usage(`${jwks}: not a JSON JWK Set`);
    set = read.value;
  }
  return { keys: keysOfJwks(set, jwks), pq: pqKeysOfJwks(set) };
}

function keyFile(file: string): Uint8Array {
  const text = readSmall(file);
  let jwk: unknown;
  try {
    jwk = text.trimStart().startsWith('{')
      ? JSON.parse(text)
      : createPublicKey(text).export({ format: 'jwk' });
  } catch {
    throw new Usage(`${file} is not a public key (PEM or JWK)`);
  }
  const key = jwkKey(jwk);
  if (!key) throw new Usage(`${file} is not an Ed25519 public key`);
  return key;
}

function policyLog(text: string, where: string): PinnedLog {
  const parsed = parseLogPolicy(text);
  if (!parsed.ok) throw new Usage(`${where}: ${parsed.reason}`);
  return parsed.log;
}

/** The service's published log policy, or undefined when it publishes none (HTTP 404). */
async function onlineLog(base: string): Promise<PinnedLog | undefined> {
  try {
    return policyLog(await fetchBounded(`${base}/log/policy`, 'text/plain'), `${base}/log/policy`);
  } catch (err) {
    if (err instanceof FetchError && / HTTP 404 /.test(err.message)) return undefined;
    throw err;
  }
}

function flagLog(o: Options, from: PinnedLog | undefined): PinnedLog | undefined {
  let log = from;
  if (o.logVkey) {
    const vkey = parseVerifierKey(o.logVkey);
    if (!vkey) throw new Usage('--log-vkey is not an Ed25519 note verifier key <name>+<id>+<key>');
    if (log && log.origin !== vkey.name)
      throw new Usage(`--log-vkey names ${vkey.name}, the policy ${log.origin}`);
    log = {
      origin: vkey.name,
      publicKey: vkey.publicKey,
      witnesses: log?.witnesses ?? [],
      quorum: log?.quorum ?? 0,
    };
  }
  if (o.logOrigin) {
    if (log && log.origin !== o.logOrigin)
      throw new Usage(`--log-origin ${o.logOrigin} differs from the pinned log ${log.origin}`);
    log ??= { origin: o.logOrigin, witnesses: [], quorum: 0 };
  }
  return log;
}

/** Where a service publishes the certificate its PDF receipts are signed with. */
export const PDF_CERT_PATH = '/.well-known/pdf-signing-cert.pem';

/**
 * The first certificate of a PEM document or a DER file, as `sha256:<hex>`: the signing
 * certificate (the published file may go on with its chain, which signs no PDF).
 */
function pdfCertificate(bytes: Uint8Array, where: string): string {
  const text = new TextDecoder('latin1').decode(bytes);
  const der = text.includes('-----BEGIN') ? certificatesFromPem(text)[0] : bytes;
  try {
    if (!der) throw new Error('no certificate');
    parseCertificate(der);
  } catch {
    throw new Usage(`${where}: not an X.509 certificate (PEM or DER)`);
  }
  return certificateFingerprint(der);
}

/** The service's published PDF certificate, or undefined when it publishes none (HTTP 404). */
async function onlinePdfCertificate(base: string): Promise<string | undefined> {
  const url = `${base}${PDF_CERT_PATH}`;
  try {
    const pem = await fetchBounded(url, 'application/x-pem-file');
    return pdfCertificate(new TextEncoder().encode(pem), url);
  } catch (err) {
    if (err instanceof FetchError && / HTTP 404 /.test(err.message)) return undefined;
    throw err instanceof Usage ? new FetchError(err.message) : err;
  }
}

async function pdfCertificates(o: Options): Promise<string[]> {
  const pinned = o.pdfCerts.map((file) =>
    pdfCertificate(
      readFileBounded(file, MAX_TRUST_FILE_BYTES, 'a certificate'),
      `--pdf-cert ${file}`,
    ),
  );
  const online = o.online ? await onlinePdfCertificate(o.online) : undefined;
  return [...pinned, ...(online ? [online] : [])];
}

export async function trustFrom(o: Options): Promise<TrustRoot> {
  const keys: Uint8Array[] = [];
  const pqKeys: Uint8Array[] = [];
  const sources: string[] = [];
  let log: PinnedLog | undefined;
  if (o.jwks) {
    const set = await jwksKeys(o.jwks);
    keys.push(...set.keys);
    pqKeys.push(...set.pq);
    sources.push(`JWKS ${o.jwks}`);
  }
  for (const file of o.keys) {
    keys.push(keyFile(file));
    sources.push(`key ${file}`);
  }
  if (o.online) {
    const url = `${o.online}/.well-known/jwks.json`;
    const set = await fetchJson(url);
    keys.push(...keysOfJwks(set, url));
    pqKeys.push(...pqKeysOfJwks(set));
    sources.push(`JWKS fetched from ${url} at ${new Date().toISOString()}`);
    log = await onlineLog(o.online);
  }
  // after the keys: an unreachable service is reported at its JWKS, the first thing it must serve
  const pdfCerts = await pdfCertificates(o);
  if (o.logPolicy) log = policyLog(readSmall(o.logPolicy), o.logPolicy);
  log = flagLog(o, log);
  const pinnedByUser =
    o.logPolicy !== undefined || o.logVkey !== undefined || o.logOrigin !== undefined;
  return {
    ...(keys.length > 0 ? { keys, source: sources.join(', ') } : {}),
    ...(pqKeys.length > 0 ? { pqKeys } : {}),
    ...(log ? { log } : {}),
    ...(pdfCerts.length > 0 ? { pdfCertificates: pdfCerts } : {}),
    ...(log && !pinnedByUser ? { logFromService: true } : {}),
    insecureIgnoreTrust: o.insecureIgnoreTrust,
  };
}
