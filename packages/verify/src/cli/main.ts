import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { documentSignatureLines, MAX_DOCUMENT_BYTES } from '../document/report.js';
import type { PdfSignature } from '../pdf/signature.js';
import { readBundle } from '../read.js';
import { MAX_TLOG_PROOF_BYTES } from '../log/tlog-proof.js';
import { MAX_PDF_BYTES } from '../pdf/attachment.js';
import { NO_TRUST_ROOT } from '../receipt-steps.js';
import { hasTrustRoot, type TrustRoot } from '../trust.js';
import { unreadable } from '../verdict.js';
import { describeTrust, verifyBundle, type VerifyOptions } from '../verify.js';
import {
  attestationReceiptHash,
  isAttestation,
  verifyAttestation,
  withAttestationPolicy,
} from '../attestation/index.js';
import { withCiPolicy } from '../ci-policy.js';
import { checkTimestamps } from '../timestamp/steps.js';
import { certificatesFromPem, MAX_CERTIFICATE_BYTES } from '../timestamp/x509.js';
import { FetchError, MAX_FETCH_BYTES } from './fetch.js';
import { parseOptions, Usage, type Options } from './options.js';
import { printVerdict, type Io } from './print.js';
import { readFileBounded, readFileHead } from './files.js';
import { statusOf } from './status.js';
import { trustFrom } from './trust.js';
import { withTlogProof } from './tlog-proof.js';

export type { Io } from './print.js';

/** Where to read every option, as a command that runs after `npx` as well as once installed. */
export const HELP_HINT =
  'run npx @verification-receipts/verify --help (or receipt-verify --help, installed) for every option';

export const USAGE = `usage: receipt-verify FILE [PROOF.tlog-proof] (--jwks FILE|URL | --key FILE | --online URL | --log-policy FILE) [options]

Checks a PDF receipt, a receipt bundle or a receipt's attestation (Sigstore bundle with a SLSA
VSA) without trusting its issuer. A trust root is required: without one nothing is verified (a
file can carry a key of its author's choosing).

Trust roots (at least one):
  --jwks FILE|URL          pin the keys of a JWK Set: a saved copy, or https://<service>/.well-known/jwks.json
  --key FILE               pin one Ed25519 public key (PEM or JWK); repeatable
  --online URL             fetch that service's JWKS and log policy now and pin them; also check the
                           current (revocation) status and that the log only grew
  --log-policy FILE        pin the log and its witnesses (C2SP tlog-policy, from <service>/log/policy)
  --log-origin ORIGIN      pin the log's origin line
  --log-vkey VKEY          pin the log's note verifier key (<origin>+<id>+<key>)
  --insecure-ignore-trust  trust the key inside the file: proves integrity only, never origin

Options:
  PROOF.tlog-proof         a C2SP tlog-proof of the receipt (also --tlog-proof FILE), for a bundle
                           saved before it was anchored
  --artifact FILE          the document itself: its SHA-256 must be the receipt's subject;
                           a signed PDF's own signatures are listed under the verdict
  --tsa-cert FILE          pin a time-stamp authority's certificate (PEM; repeatable): the bundle's
                           RFC 3161 tokens must verify and match its checkpoint; reports the
                           earliest independent time the receipt existed
  --pdf-cert FILE          pin the service's PDF signing certificate (PEM or DER, from
                           <service>/.well-known/pdf-signing-cert.pem; repeatable): a PDF signed by it
                           is the service's; --online fetches it too. Otherwise a pinned receipt key
                           must endorse the PDF's certificate (a key trusted only through the log never does)
  --allow-unsigned-pdf     accept a PDF without a PAdES signature, with a warning: only for PDFs made
                           before receipts were signed (without it, an unsigned PDF fails)
  --require-pq             the receipt must also carry an ML-DSA-44 (post-quantum) signature that
                           verifies under a pinned ML-DSA-44 key (an AKP key of --jwks or --online);
                           without it a missing or broken one is reported and does not count

Current status (exit 0 needs the receipt known not to be revoked):
  --online URL             (above) fetches the signed status now
  --status FILE            a saved signed status: the answer of GET <service>/status/{receiptHash}
                           ?treeSize=N (N the bundle's tree size); a bundle may also carry one
  --max-status-age SECS    how old a status statement may be and still count as current (default 300)
  --offline                accept an unknown status: an authentic ALLOW receipt whose status was
                           not checked is exit 0 (the verdict line says so), not exit 3

CI receipts (each failing condition is named; an authentic receipt that misses one is exit 3):
  --repo OWNER/NAME        the receipt is about this repository
  --sha COMMIT             ... and this commit
  --signer-workflow PATH   ... made by this workflow file (.github/workflows/release.yml), proven
                           by the run's OIDC token
  --deny-self-hosted-runners  the run is proven to have used GitHub-hosted runners only
  --profile ID             the receipt was judged under this policy profile (ci-provenance-v2)
                           An attestation states repo, sha and profile only: --signer-workflow and
                           --deny-self-hosted-runners on it are not met (verify the bundle or PDF)

Output:
  --json                   print one JSON object (its schema: verify-result.schema.json in this
                           package, node_modules/@verification-receipts/verify/)
  --help, -h               this text

Each verdict, failing step and reason label is said in plain words first, the technical detail
under it. The words (receipt, bundle, key, log, witness, status, PDF signature, trust root) are
explained in GLOSSARY.md in this package, beside its README (docs/glossary.md of the service's
repository).

Exit status: 0 authentic, ALLOW and known not to be revoked (checked online, or by a signed status
no older than --max-status-age; or its status accepted as unknown with --offline); 1 not authentic
(the failing step is named); 2 unreadable input or bad usage, no trust root included; 3 authentic
but FLAG, BLOCK, revoked, its status not checked, not yet in a pinned log, or a CI condition not met.
Every fetch reads at most ${MAX_FETCH_BYTES} bytes; https only (http only to localhost).

example: npx @verification-receipts/verify receipt.pdf --online https://receipts.example.com
(installed, the same command is receipt-verify)`;

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  } catch {
    throw new Usage(`--artifact ${file}: cannot be read`);
  }
  return hash.digest('hex');
}

/** --tsa-cert files: PEM certificates, each file at most 16 KiB per certificate it may hold. */
function tsaCertificates(files: readonly string[]): Uint8Array[] {
  return files.flatMap((file) => {
    const text = readFileBounded(file, 16 * MAX_CERTIFICATE_BYTES, 'a TSA certificate').toString(
      'utf8',
    );
    const certs = certificatesFromPem(text);
    if (certs.length === 0) throw new Usage(`--tsa-cert ${file}: no CERTIFICATE in it`);
    return certs;
  });
}

/**
 * The signatures of an --artifact that is a PDF (a notarised deed), shown under the verdict: they
 * do not change it. Undefined for an artifact that is not a PDF; one line for one too large to
 * read (the same bound as the service's doc.signatures).
 */
async function artifactSignatures(file: string): Promise<string[] | undefined> {
  let bytes: Uint8Array;
  let size: number;
  try {
    size = fs.statSync(file).size;
    // of a file too large to read, its header only: the report says so, if it is a PDF
    bytes = new Uint8Array(
      size > MAX_DOCUMENT_BYTES ? readFileHead(file, 5) : fs.readFileSync(file),
    );
  } catch {
    return undefined;
  }
  const lines = await documentSignatureLines(bytes, path.basename(file), size);
  return lines.length > 0 ? lines : undefined;
}

/** What a PDF's reading gives the verifier: its printed text and its signature. */
function pdfOf(
  read: { printed?: { text: string }; signature?: PdfSignature },
  allowUnsigned: boolean,
): VerifyOptions['pdf'] {
  return {
    ...(read.printed ? { printed: read.printed } : {}),
    ...(read.signature ? { signature: read.signature } : {}),
    ...(allowUnsigned ? { allowUnsigned } : {}),
  };
}

/** An attestation (Sigstore bundle v0.3): its own steps, the same trust root and CI options. */
async function runAttestation(
  o: Options,
  io: Io,
  trust: TrustRoot,
  input: unknown,
): Promise<number> {
  if (o.tlogProof || o.artifact || o.tsaCerts.length > 0)
    throw new Usage('an attestation is checked without a tlog-proof, --artifact or --tsa-cert');
  const status = await statusOf(o, attestationReceiptHash(input));
  const authentic = verifyAttestation(input, {
    trust,
    trustText: describeTrust(trust),
    ...(status ? { status } : {}),
    ...(o.offline ? { acceptUnknownStatus: true } : {}),
    ...(o.maxStatusAge !== undefined ? { maxStatusAgeSeconds: o.maxStatusAge } : {}),
  });
  const verdict = withAttestationPolicy(authentic, o.ci);
  printVerdict(io, verdict, o.json);
  return verdict.exitCode;
}

async function run(o: Options, io: Io): Promise<number> {
  const trust: TrustRoot = await trustFrom(o);
  // a file carries a key of its author's choosing: without a pinned root nothing is verified
  if (!hasTrustRoot(trust) && !trust.insecureIgnoreTrust) throw new Usage(NO_TRUST_ROOT);
  const bytes = new Uint8Array(readFileBounded(o.file, MAX_PDF_BYTES, 'a receipt'));
  const read = await readBundle(bytes);
  if (!read.ok) {
    printVerdict(io, unreadable(read.reason, 'not used'), o.json);
    return 2;
  }
  if (read.from === 'bundle' && isAttestation(read.bundle))
    return runAttestation(o, io, trust, read.bundle);
  const bundle = o.tlogProof
    ? withTlogProof(
        read.bundle,
        readFileBounded(o.tlogProof, MAX_TLOG_PROOF_BYTES, 'a tlog-proof').toString('utf8'),
        trust,
      )
    : read.bundle;
  const b = bundle as { receipt?: { receiptHash?: unknown }; logEntry?: { treeSize?: unknown } };
  const status = await statusOf(o, String(b?.receipt?.receiptHash ?? ''), b?.logEntry?.treeSize);
  const time = await checkTimestamps(bundle, tsaCertificates(o.tsaCerts));
  const authentic = verifyBundle(bundle, {
    timestamps: time.step,
    ...(time.authorities ? { timestampAuthorities: time.authorities } : {}),
    trust,
    ...(read.from === 'pdf' ? { pdf: pdfOf(read, o.allowUnsignedPdf) } : {}),
    ...(o.artifact ? { artifact: { sha256: await sha256OfFile(o.artifact) } } : {}),
    ...(status ? { status } : {}),
    ...(o.offline ? { acceptUnknownStatus: true } : {}),
    ...(o.requirePq ? { requirePq: true } : {}),
    ...(o.maxStatusAge !== undefined ? { maxStatusAgeSeconds: o.maxStatusAge } : {}),
  });
  const verdict = withCiPolicy(authentic, o.ci);
  const signatures = o.artifact ? await artifactSignatures(o.artifact) : undefined;
  printVerdict(io, verdict, o.json, signatures);
  if (verdict.insecure)
    io.err('WARNING: --insecure-ignore-trust: this proves the file is intact, not who made it');
  return verdict.exitCode;
}

/** `receipt-verify ARGS`: the exit code (0, 1, 2 or 3; see USAGE). */
export async function main(args: string[], io: Io): Promise<number> {
  let o: Options;
  try {
    o = parseOptions(args);
  } catch (err) {
    io.err(`error: ${(err as Error).message}`);
    io.err(HELP_HINT);
    return 2;
  }
  if (o.help) {
    io.out(USAGE);
    return 0;
  }
  try {
    return await run(o, io);
  } catch (err) {
    if (!(err instanceof Usage || err instanceof FetchError)) throw err;
    io.err(`error: ${err.message}`);
    io.err(
      err instanceof FetchError
        ? 'check the URL and your connection, or pin a saved copy with --jwks FILE'
        : HELP_HINT,
    );
    return 2;
  }
}
