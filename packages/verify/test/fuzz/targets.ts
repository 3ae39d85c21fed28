import { jwksFromText } from '../../src/cli/trust.js';
import { parseJsonBounded } from '../../src/json.js';
import { countCosignatures, parseCosignerKey } from '../../src/log/cosignature.js';
import { openNote, parseCheckpointBody, parseVerifierKey } from '../../src/log/note.js';
import { parseLogPolicy } from '../../src/log/policy.js';
import { parseTlogProof } from '../../src/log/tlog-proof.js';
import { readPdfReceipt } from '../../src/pdf/attachment.js';
import { loadPdf } from '../../src/pdf/load.js';
import { checkPdfRevisions } from '../../src/pdf/revision-check.js';
import { readDocumentSignatures } from '../../src/pdf/document-signatures.js';
import { documentText } from '../../src/pdf/document-text.js';
import { checkCms } from '../../src/pdf/signature.js';
import { contentText } from '../../src/pdf/text.js';
import { MAX_BUNDLE_BYTES, readBundle } from '../../src/read.js';
import { verifyStatus } from '../../src/status.js';
import { DerError } from '../../src/timestamp/der.js';
import { checkTimestamps } from '../../src/timestamp/steps.js';
import { verifyTimestampToken } from '../../src/timestamp/token.js';
import { certificatesFromPem, parseCertificate } from '../../src/timestamp/x509.js';
import { verifyBundle } from '../../src/verify.js';
import { verifyWebhook, WebhookVerificationError } from '../../src/webhook.js';
import { Usage } from '../../src/cli/options.js';
import { pinnedKeys } from '../helpers.js';
import { agreedReading } from '../pdf/scan-oracle.js';
import * as seeds from './seeds.js';
import { WEBHOOK_FUZZ_KEY, webhookSeeds } from './webhook-seeds.js';

/**
 * One fuzz target per parser of untrusted bytes. `run` feeds it one input and returns once the
 * parser has answered; it throws only when the parser broke its contract: threw anything but its
 * typed failure (`typed`), or answered with a value of the wrong shape. The harness (./fuzz.ts)
 * adds the time bound.
 */
export interface FuzzTarget {
  name: string;
  /** What it exercises, for the README and the report. */
  parser: string;
  seeds(): Promise<Uint8Array[]>;
  run(input: Uint8Array): Promise<unknown>;
  /** The parser's own failure, when it reports one by throwing. */
  typed?: (error: unknown) => boolean;
  /** Runs in the normal test suite (a short, fixed budget). */
  ciRuns: number;
}

const utf8 = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const texts = (list: string[]) => async (): Promise<Uint8Array[]> => list.map(encode);

/** An answer must be one of the parser's typed results: `{ ok: boolean, ... }`. */
function typedResult(value: unknown, what: string): unknown {
  const ok = (value as { ok?: unknown } | null)?.ok;
  if (typeof ok !== 'boolean') throw new Error(`${what} answered without a typed result`);
  if (!ok && typeof (value as { reason?: unknown }).reason !== 'string') {
    throw new Error(`${what} failed without a reason`);
  }
  return value;
}

/** The PAdES target signs nothing: it checks mutated CMS over the sample receipt's byte range. */
function signatureFixture() {
  const [file] = seeds.pdfSeeds();
  if (!file) throw new Error('no sample receipt');
  return { file, byteRange: seeds.rawSignature(file).byteRange };
}

const tsaCa = (): Uint8Array[] => certificatesFromPem(seeds.tokenCaPem());

export const TARGETS: FuzzTarget[] = [
  {
    name: 'pdf-load',
    parser:
      "PDF objects, cross-reference tables and streams, object streams (pdf-lib's parser, bounded: pdf/load.ts)",
    seeds: async () => seeds.pdfSeeds(),
    run: async (bytes) => typedResult(await loadPdf(bytes), 'loadPdf'),
    ciRuns: 30,
  },
  {
    name: 'pdf-text',
    parser: 'page content streams: the printed text (pdf/text.ts)',
    seeds: seeds.contentSeeds,
    run: async (bytes) => typedResult(contentText(bytes), 'contentText'),
    ciRuns: 200,
  },
  {
    name: 'pdf-attachment',
    parser:
      'the attached bundle, the page tree and its text, the signature fields (pdf/attachment.ts, pdf/pages.ts)',
    seeds: async () => seeds.pdfSeeds(),
    run: async (bytes) =>
      typedResult(await readPdfReceipt(bytes, MAX_BUNDLE_BYTES), 'readPdfReceipt'),
    ciRuns: 30,
  },
  {
    name: 'pdf-receipt',
    parser: 'a whole PDF receipt: readBundle, its PAdES signature and verifyBundle',
    seeds: async () => seeds.pdfSeeds(),
    run: async (bytes) => {
      const read = typedResult(await readBundle(bytes), 'readBundle') as Awaited<
        ReturnType<typeof readBundle>
      >;
      if (!read.ok) return read;
      const pdf = {
        ...(read.printed ? { printed: read.printed } : {}),
        ...(read.signature ? { signature: read.signature } : {}),
      };
      return JSON.stringify(verifyBundle(read.bundle, { trust: { keys: pinnedKeys() }, pdf }));
    },
    ciRuns: 20,
  },
  {
    name: 'pdf-revisions',
    parser:
      'every revision of a PDF: cross-reference sections and streams, /Prev chains, the objects each revision changes, every signature dictionary (pdf/xref.ts, pdf/revision-check.ts)',
    seeds: async () => seeds.pdfSeeds(),
    run: async (bytes) => {
      const checked = await checkPdfRevisions(bytes);
      if (typeof (checked as { present?: unknown }).present !== 'boolean') {
        throw new Error('checkPdfRevisions answered without a typed result');
      }
      return checked;
    },
    ciRuns: 30,
  },
  {
    name: 'pdf-document',
    parser:
      'a signed document (a notarised deed): every signature of every revision, BER or DER CMS, what follows each, and the printed text (pdf/document-signatures.ts, pdf/ber.ts, pdf/document-text.ts)',
    seeds: async () => [...seeds.pdfSeeds(), ...(await seeds.berSignedSeeds())],
    run: async (bytes) => {
      const read = typedResult(await readDocumentSignatures(bytes), 'readDocumentSignatures');
      return [read, typedResult(await documentText(bytes), 'documentText')];
    },
    ciRuns: 30,
  },
  {
    name: 'pdf-object-scan',
    parser:
      "one PDF object read without building its values (its extent, kind, keys and references), against pdf-lib's parse of the same bytes (pdf/scan.ts)",
    seeds: async () => seeds.objectSeeds(),
    run: async (bytes) => agreedReading(bytes),
    ciRuns: 150,
  },
  {
    name: 'pdf-signature',
    parser:
      'the PAdES signature: CMS SignedData, signed attributes, signer certificate (pdf/signature.ts)',
    seeds: seeds.cmsSeeds,
    run: async (contents) => {
      const { file, byteRange } = signatureFixture();
      const checked = await checkCms({ byteRange, contents }, file);
      if (!checked.present) throw new Error('a signature field was not seen');
      return checked;
    },
    ciRuns: 80,
  },
  {
    name: 'x509',
    parser: 'DER and X.509 certificates (timestamp/der.ts, timestamp/x509.ts)',
    seeds: seeds.certificateSeeds,
    run: async (der) => parseCertificate(der),
    typed: (error) => error instanceof DerError,
    ciRuns: 300,
  },
  {
    name: 'tsp-token',
    parser: 'RFC 3161 time-stamp tokens, checked against a pinned CA (timestamp/token.ts)',
    seeds: async () => seeds.tokenSeeds(),
    run: async (token) =>
      typedResult(
        await verifyTimestampToken(token, { data: seeds.tokenData(), trusted: tsaCa() }),
        'verifyTimestampToken',
      ),
    ciRuns: 100,
  },
  {
    name: 'signed-note',
    parser: 'C2SP signed notes and checkpoints (log/note.ts)',
    seeds: texts(seeds.noteSeeds()),
    run: async (bytes) => {
      const key = parseVerifierKey(seeds.noteKey());
      if (!key) throw new Error('the fixture note key does not parse');
      const opened = typedResult(openNote(utf8(bytes), key), 'openNote') as {
        ok: boolean;
        text?: string;
      };
      return opened.ok ? parseCheckpointBody(opened.text ?? '') : opened;
    },
    ciRuns: 200,
  },
  {
    name: 'cosignatures',
    parser: 'C2SP tlog-cosignature lines, Ed25519 and ML-DSA-44 (log/cosignature.ts)',
    seeds: texts(seeds.cosignedNoteSeeds()),
    run: async (bytes) => {
      const note = utf8(bytes);
      const text = note.slice(0, note.lastIndexOf('\n\n') + 1);
      const witnesses = seeds.cosignerKeys().map((vkey) => parseCosignerKey(vkey));
      if (witnesses.some((w) => w === undefined)) throw new Error('a seed vkey does not parse');
      const counted = countCosignatures(
        note,
        text,
        witnesses as NonNullable<(typeof witnesses)[0]>[],
      );
      if (!Array.isArray(counted.valid) || !Array.isArray(counted.invalid)) {
        throw new Error('countCosignatures answered another shape');
      }
      return counted;
    },
    ciRuns: 100,
  },
  {
    name: 'tlog-proof',
    parser: 'C2SP tlog-proof files (log/tlog-proof.ts)',
    seeds: texts(seeds.tlogProofSeeds()),
    run: async (bytes) => typedResult(parseTlogProof(utf8(bytes)), 'parseTlogProof'),
    ciRuns: 200,
  },
  {
    name: 'tlog-policy',
    parser: 'C2SP tlog-policy files (log/policy.ts)',
    seeds: texts(seeds.policySeeds()),
    run: async (bytes) => typedResult(parseLogPolicy(utf8(bytes)), 'parseLogPolicy'),
    ciRuns: 200,
  },
  {
    name: 'bundle-json',
    parser:
      'receipt bundles as JSON: readBundle, verifyBundle, the time-stamp step (read.ts, bundle.ts)',
    seeds: async () => seeds.bundleSeeds(),
    run: async (bytes) => {
      const read = typedResult(await readBundle(bytes), 'readBundle') as Awaited<
        ReturnType<typeof readBundle>
      >;
      if (!read.ok) return read;
      const verdict = verifyBundle(read.bundle, { trust: { keys: pinnedKeys() } });
      await checkTimestamps(read.bundle, tsaCa());
      return JSON.stringify(verdict);
    },
    ciRuns: 100,
  },
  {
    name: 'jwks',
    parser: 'JWK Sets given to --jwks (cli/trust.ts)',
    seeds: texts(seeds.jwksSeeds()),
    run: async (bytes) => jwksFromText(utf8(bytes), 'jwks.json'),
    typed: (error) => error instanceof Usage,
    ciRuns: 200,
  },
  {
    name: 'status',
    parser: 'signed status statements (status.ts)',
    seeds: async () => seeds.statusSeeds(),
    run: async (bytes) => {
      const read = parseJsonBounded(utf8(bytes));
      if (!read.ok) return read;
      const receiptHash = String(
        (read.value as { statement?: { receiptHash?: unknown } } | null)?.statement?.receiptHash ??
          '',
      );
      const result = verifyStatus(read.value, { receiptHash, keys: pinnedKeys() });
      if (!Array.isArray(result.steps)) throw new Error('verifyStatus answered without steps');
      return result;
    },
    ciRuns: 200,
  },
  {
    name: 'webhook',
    parser: 'v1a webhooks: headers, signatures and body (webhook.ts)',
    seeds: async () => webhookSeeds().map(encode),
    run: async (bytes) => {
      // id, timestamp and signature header on the first three lines, the body after them
      const [id = '', timestamp = '', signature = '', ...rest] = utf8(bytes).split('\n');
      const headers = {
        'webhook-id': id,
        'webhook-timestamp': timestamp,
        'webhook-signature': signature,
      };
      const now = new Date(Number(timestamp) * 1000 || 0);
      const verified = verifyWebhook({
        body: rest.join('\n'),
        headers,
        keys: WEBHOOK_FUZZ_KEY,
        now,
      });
      if (verified.id !== id) throw new Error('verifyWebhook answered another id');
      return verified;
    },
    typed: (error) => error instanceof WebhookVerificationError,
    ciRuns: 200,
  },
];
