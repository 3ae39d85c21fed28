import { PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { DerError } from '../timestamp/der.js';
import { definiteLengths } from './ber.js';
import { docTimeStampProblem } from './doc-timestamp.js';
import { name, ObjectReader, Unreadable } from './objects.js';
import {
  coveredLength,
  rawSignature,
  reviewLater,
  signatureDictionaries,
  timeStampProblems,
  type Found,
} from './revision-check.js';
import { verifyCms, type CmsSigner } from './signature.js';
import { unlistedSignature } from './unlisted.js';
import { readRevisions, type Revision } from './xref.js';
import { State } from './state.js';
import { stateText, type DocumentText } from './document-text.js';

/**
 * Every signature of a PDF someone else signed (a notarised deed), read with the same
 * revision-aware reader as the receipt's own signature (./revision-check.ts): each signature
 * dictionary any revision lists, what its byte range covers (a whole revision, or not), what the
 * revisions after it change beyond what PAdES allows (DSS, document time-stamps and, unlike a
 * receipt, further signatures), and its CMS checked over its bytes (BER accepted: see ./ber.ts).
 * Who signed and whether to trust them is the caller's judgement; this says what the file holds,
 * and what its pages print (document-text.ts), read once with the same reader.
 * Never throws, whatever the bytes: an unreadable file is `{ ok: false }`.
 */

/** Signatures judged in one file (a deed has one to a few; each costs a review of the rest). */
export const MAX_DOCUMENT_SIGNATURES = 16;

export interface DocumentSignature {
  /** 1 for the first signature the revisions add, and so on. */
  index: number;
  /** The revision whose cross-reference section first lists its dictionary. */
  revision: number;
  kind: 'signature' | 'document time-stamp';
  subFilter: string | undefined;
  /** The dictionary's /M: the time the signer's software claims, proven by nothing. */
  claimedTime: Date | undefined;
  /** The revision its byte range ends with, and whether that is the end of the file. */
  coverage: { revision: number; end: number; wholeFile: boolean } | undefined;
  /** Why the signature itself is not valid (malformed, wrong range, bytes changed, bad CMS). */
  invalid: string | undefined;
  /** What the file changes after the signed revision beyond what PAdES allows. */
  modified: string | undefined;
  /** What the revisions after it add that PAdES allows ("revision 3 adds a DSS dictionary"). */
  additions: string[];
  /** The verified CMS (signatures only), with the signer's certificate and times. */
  cms: CmsSigner | undefined;
}

export type DocumentSignatures =
  | {
      ok: true;
      revisions: number;
      length: number;
      signatures: DocumentSignature[];
      /** What the pages print after the last revision (read with the same reader). */
      text: DocumentText;
    }
  | { ok: false; reason: string };

export async function readDocumentSignatures(file: Uint8Array): Promise<DocumentSignatures> {
  try {
    return await read(file);
  } catch (err) {
    if (err instanceof Unreadable || err instanceof DerError || err instanceof RangeError) {
      return { ok: false, reason: `the PDF's revisions cannot be read: ${err.message}` };
    }
    throw err;
  }
}

async function read(file: Uint8Array): Promise<DocumentSignatures> {
  const reader = new ObjectReader(file);
  const revisions = readRevisions(reader);
  const found = signatureDictionaries(reader, revisions);
  if (found.length > MAX_DOCUMENT_SIGNATURES) {
    return { ok: false, reason: `the PDF holds more than ${MAX_DOCUMENT_SIGNATURES} signatures` };
  }
  const unlisted = unlistedSignature(file, found);
  const signatures: DocumentSignature[] = [];
  for (const [i, f] of found.entries()) {
    const judged = await judge(f, { reader, revisions, file, found });
    signatures.push({
      index: i + 1,
      ...judged,
      modified: judged.modified ?? unlisted,
    });
  }
  const text = stateText(new State(reader, revisions, revisions.length));
  return { ok: true, revisions: revisions.length, length: file.length, signatures, text };
}

interface Whole {
  reader: ObjectReader;
  revisions: Revision[];
  file: Uint8Array;
  found: Found[];
}

async function judge(f: Found, whole: Whole): Promise<Omit<DocumentSignature, 'index'>> {
  const { reader, revisions, file } = whole;
  const base: Omit<DocumentSignature, 'index'> = {
    revision: f.revision,
    kind: f.timeStamp ? 'document time-stamp' : 'signature',
    subFilter: name(f.dict, 'SubFilter'),
    claimedTime: pdfDate(f.dict.get(PDFName.of('M'))),
    coverage: undefined,
    invalid: undefined,
    modified: undefined,
    additions: [],
    cms: undefined,
  };
  const raw = rawSignature(f.dict);
  if (typeof raw === 'string') return { ...base, invalid: raw };
  const covered = coveredLength(raw.byteRange, f, file);
  if (typeof covered === 'string') return { ...base, invalid: covered };
  const signed = revisions.find((r) => r.end === covered);
  if (!signed) {
    const modified = `the signature covers bytes 0-${covered}, which is not the end of a revision`;
    return { ...base, modified };
  }
  const coverage = { revision: signed.number, end: covered, wholeFile: covered === file.length };
  const later = reviewLater(reader, revisions, signed, file.length, true);
  const stamps = whole.found.filter((s) => s.timeStamp && s.revision > signed.number);
  const problems = [
    ...later.violations,
    ...stamps.flatMap((s) => timeStampProblems(s, file, revisions)),
  ];
  const judged = { ...base, coverage, additions: later.additions };
  const modified = problems.length > 0 ? problems.join('; ') : undefined;
  if (f.timeStamp) {
    const problem = docTimeStampProblem(raw, file);
    return {
      ...judged,
      modified,
      invalid: problem ? `the document time-stamp ${problem}` : undefined,
    };
  }
  let contents: Uint8Array;
  try {
    contents = definiteLengths(raw.contents);
  } catch (err) {
    if (!(err instanceof DerError)) throw err;
    return { ...judged, modified, invalid: `the signature is malformed (${err.message})` };
  }
  const cms = await verifyCms({ byteRange: raw.byteRange, contents }, file);
  if (!cms.ok) return { ...judged, modified, invalid: cms.reason };
  return { ...judged, modified, cms };
}

/**
 * A PDF date (ISO 32000-1 7.9.4): `D:YYYYMMDDHHmmSSOHH'mm'`, every part after the year optional,
 * no offset meaning UTC here. Undefined when absent or malformed.
 */
export function pdfDate(value: unknown): Date | undefined {
  if (!(value instanceof PDFString || value instanceof PDFHexString)) return undefined;
  const text = value.decodeText().slice(0, 64);
  const match =
    /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Zz+-])(?:(\d{2})'?(?:(\d{2})'?)?)?)?$/.exec(
      text.trim(),
    );
  if (!match) return undefined;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign, oh = '0', om = '0'] = match;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const offset = (Number(oh) * 60 + Number(om)) * 60_000;
  const date = new Date(sign === '+' ? utc - offset : sign === '-' ? utc + offset : utc);
  return Number.isNaN(date.getTime()) || Number(mo) > 12 || Number(d) > 31 ? undefined : date;
}
