import { createHash } from 'node:crypto';
import {
  ALGORITHM_HORIZONS,
  children,
  DerError,
  keyAlgorithm,
  readNode,
  readWhole,
  sequence,
  verifyTimestampToken,
} from '@verification-receipts/verify/internals';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFRef,
} from 'pdf-lib';
import { BYTE_RANGE_PLACEHOLDER, incrementalUpdate, locate, type Prepared } from './incremental.js';
import type { SignatureTimestamper } from './pades.js';
import type { RevocationFinding, RevocationSource } from './revocation.js';

/**
 * PAdES B-LT and B-LTA (ETSI EN 319 142-1 5.4, 5.5) on a signed PDF, each step an incremental
 * update of its own that a validator may add after the signature: a DSS dictionary holding the
 * certificates (and CRLs and OCSP responses, where the authorities publish them) that validate
 * the signature and its time-stamps, then a document time-stamp (/Type /DocTimeStamp, /SubFilter
 * /ETSI.RFC3161) over the whole file, DSS included. Renewing repeats both: the DSS gains the last
 * document time-stamp's certificates, and a new time-stamp covers it.
 */

/** Validation material for the DSS (DER). */
export interface ValidationMaterial {
  certificates: readonly Uint8Array[];
  crls?: readonly Uint8Array[];
  ocsps?: readonly Uint8Array[];
}

/** Room for a document time-stamp token (a TSA's token with its chain is 2 to 6 KiB). */
const TOKEN_RESERVE = 12 * 1024;

const NAME = {
  dss: PDFName.of('DSS'),
  certs: PDFName.of('Certs'),
  crls: PDFName.of('CRLs'),
  ocsps: PDFName.of('OCSPs'),
  acroForm: PDFName.of('AcroForm'),
  fields: PDFName.of('Fields'),
  annots: PDFName.of('Annots'),
};

const hashOf = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * `pdf` with a DSS revision holding what it held before and `material` not yet in it; the file
 * unchanged when everything is already there.
 */
export async function addDss(pdf: Buffer, material: ValidationMaterial): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const { context, catalog } = doc;
  const rootRef = context.trailerInfo.Root;
  if (!(rootRef instanceof PDFRef)) throw new Error('the PDF has no catalog reference');
  const old = catalog.lookupMaybe(NAME.dss, PDFDict);
  let next = context.largestObjectNumber + 1;
  const objects: [number, string][] = [];
  const lists = { certs: [] as string[], crls: [] as string[], ocsps: [] as string[] };
  let added = 0;
  for (const [list, key, items] of [
    ['certs', NAME.certs, material.certificates],
    ['crls', NAME.crls, material.crls ?? []],
    ['ocsps', NAME.ocsps, material.ocsps ?? []],
  ] as const) {
    const refs = old?.lookupMaybe(key, PDFArray)?.asArray() ?? [];
    const held = new Set<string>();
    for (const ref of refs) {
      const stream = context.lookup(ref);
      if (stream instanceof PDFRawStream) held.add(hashOf(stream.getContents()));
      lists[list].push(ref.toString());
    }
    for (const item of items) {
      const hash = hashOf(item);
      if (held.has(hash)) continue;
      held.add(hash);
      const number = next++;
      objects.push([number, streamBody(item)]);
      lists[list].push(`${number} 0 R`);
      added += 1;
    }
  }
  if (added === 0) return pdf;
  const dssNumber = next++;
  const entries = [
    `/Certs [${lists.certs.join(' ')}]`,
    ...(lists.crls.length > 0 ? [`/CRLs [${lists.crls.join(' ')}]`] : []),
    ...(lists.ocsps.length > 0 ? [`/OCSPs [${lists.ocsps.join(' ')}]`] : []),
  ];
  objects.push([dssNumber, `<<\n${entries.join('\n')}\n>>`]);
  const catalogDict = catalog.clone(context) as PDFDict;
  catalogDict.set(NAME.dss, PDFRef.of(dssNumber));
  objects.push([rootRef.objectNumber, catalogDict.toString()]);
  return incrementalUpdate(pdf, doc, rootRef, next, objects).pdf;
}

/** A stream object's body holding `bytes` as they are (latin1 keeps every byte). */
function streamBody(bytes: Uint8Array): string {
  return `<<\n/Length ${bytes.length}\n>>\nstream\n${Buffer.from(bytes).toString('latin1')}\nendstream`;
}

/**
 * `pdf` with a document time-stamp over all of it, or undefined when no authority answered.
 * The time-stamp is an invisible signature field of the existing form (the service's signature
 * made it), its widget on the first page.
 */
export async function addDocumentTimestamp(
  pdf: Buffer,
  timestamper: SignatureTimestamper,
): Promise<Buffer | undefined> {
  let capacity = TOKEN_RESERVE;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const prepared = await appendTimestampField(pdf, capacity);
    const [a, b, c, d] = prepared.byteRange;
    const covered = Buffer.concat([
      prepared.pdf.subarray(a, a + b),
      prepared.pdf.subarray(c, c + d),
    ]);
    const token = await timestamper.stamp(covered);
    if (!token) return undefined;
    if (token.length <= capacity) {
      prepared.pdf.write(token.toString('hex'), prepared.contentsOffset + 1, 'latin1');
      return prepared.pdf;
    }
    capacity = token.length + 1024;
  }
  throw new Error('the document time-stamp did not fit its placeholder');
}

async function appendTimestampField(original: Buffer, capacity: number): Promise<Prepared> {
  const doc = await PDFDocument.load(original, { updateMetadata: false });
  const { context, catalog } = doc;
  const rootRef = context.trailerInfo.Root;
  if (!(rootRef instanceof PDFRef)) throw new Error('the PDF has no catalog reference');
  const formRef = catalog.get(NAME.acroForm);
  const form = catalog.lookupMaybe(NAME.acroForm, PDFDict);
  if (!(formRef instanceof PDFRef) || !form) throw new Error('the PDF has no signed form');
  const page = doc.getPage(0);
  let next = context.largestObjectNumber + 1;
  const sigNumber = next++;
  const widgetNumber = next++;
  const count = form.lookupMaybe(NAME.fields, PDFArray)?.size() ?? 0;

  const formDict = form.clone(context) as PDFDict;
  const fields = form.lookupMaybe(NAME.fields, PDFArray);
  const newFields = fields ? (fields.clone(context) as PDFArray) : context.obj([]);
  newFields.push(PDFRef.of(widgetNumber));
  formDict.set(NAME.fields, newFields);
  const pageDict = page.node.clone(context) as PDFDict;
  const annots = page.node.lookupMaybe(NAME.annots, PDFArray);
  const newAnnots = annots ? (annots.clone(context) as PDFArray) : context.obj([]);
  newAnnots.push(PDFRef.of(widgetNumber));
  pageDict.set(NAME.annots, newAnnots);

  const objects: [number, string][] = [
    [
      sigNumber,
      `<<\n/Type /DocTimeStamp\n/Filter /Adobe.PPKLite\n/SubFilter /ETSI.RFC3161\n` +
        `/ByteRange ${BYTE_RANGE_PLACEHOLDER}\n/Contents <${'0'.repeat(2 * capacity)}>\n>>`,
    ],
    [
      widgetNumber,
      `<<\n/Type /Annot\n/Subtype /Widget\n/FT /Sig\n/T (Archive time-stamp ${count})\n` +
        `/V ${sigNumber} 0 R\n/F 132\n/Rect [0 0 0 0]\n/P ${page.ref.toString()}\n>>`,
    ],
    [formRef.objectNumber, formDict.toString()],
    [page.ref.objectNumber, pageDict.toString()],
  ];
  const { pdf, offsets } = incrementalUpdate(original, doc, rootRef, next, objects);
  return locate(pdf, offsets.get(sigNumber) ?? 0, capacity);
}

/** The certificates a CMS SignedData (a signature or a time-stamp token) carries, DER. */
export function certificatesOfCms(der: Uint8Array): Uint8Array[] {
  try {
    const [, wrapped] = sequence(readWhole(readNode(der).bytes), 'ContentInfo');
    const signedData = wrapped ? children(wrapped)[0] : undefined;
    if (!signedData) return [];
    const certs = sequence(signedData, 'SignedData').find((n) => n.tag === CONTEXT_0);
    return certs ? children(certs, 16).map((n) => n.bytes) : [];
  } catch (err) {
    if (err instanceof DerError) return [];
    throw err;
  }
}

const CONTEXT_0 = 0xa0;

/**
 * The /Contents of each signature dictionary in the file (the service's CMS signature and every
 * document time-stamp token), oldest first, with /Type /DocTimeStamp ones marked.
 */
export async function signatureContents(pdf: Buffer): Promise<SignatureContents[]> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const out: (SignatureContents & { num: number })[] = [];
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict)) continue;
    const type = object.get(PDFName.of('Type'));
    const contents = object.get(PDFName.of('Contents'));
    if (!(contents instanceof PDFHexString)) continue;
    const timeStamp = type === PDFName.of('DocTimeStamp');
    if (!timeStamp && type !== PDFName.of('Sig')) continue;
    const range = object.lookupMaybe(PDFName.of('ByteRange'), PDFArray);
    const byteRange = (range?.asArray() ?? []).map((n) => Number(n.toString()));
    const der = readNode(contents.asBytes()).bytes;
    out.push({ der, timeStamp, byteRange, num: ref.objectNumber });
  }
  return out
    .sort((a, b) => a.num - b.num)
    .map(({ der, timeStamp, byteRange }) => ({
      der,
      timeStamp,
      byteRange,
    }));
}

interface SignatureContents {
  der: Uint8Array;
  timeStamp: boolean;
  byteRange: number[];
}

/**
 * When the newest document time-stamp stops being relied on: its authority's certificate ends,
 * or its key's algorithm reaches its published end (the verifier's ALGORITHM_HORIZONS),
 * whichever is first. Undefined when the file has no document time-stamp that verifies over
 * its range under `trusted`.
 */
export async function archiveExpiry(
  pdf: Buffer,
  trusted: readonly Uint8Array[],
): Promise<Date | undefined> {
  const newest = (await signatureContents(pdf)).filter((s) => s.timeStamp).at(-1);
  if (!newest) return undefined;
  const [a = 0, b = 0, c = 0, d = 0] = newest.byteRange;
  const data = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
  const check = await verifyTimestampToken(newest.der, { data, trusted });
  if (!check.ok) return undefined;
  const end = ALGORITHM_HORIZONS[keyAlgorithm(check.signer.spki)]?.until;
  const algorithmEnd = end ? new Date(end) : undefined;
  return algorithmEnd && algorithmEnd < check.signer.notAfter
    ? algorithmEnd
    : check.signer.notAfter;
}

/** What `archive` made: the B-LTA file, or why there is none, and the revocation findings. */
export interface Archived {
  /** Undefined when no authority answered or a certificate of the file is revoked. */
  pdf: Buffer | undefined;
  /** Why there is no file. */
  reason?: string;
  /** Per certificate whose issuer publishes a CRL: embedded, unavailable or revoked. */
  revocation: RevocationFinding[];
}

/**
 * The signed PDF made B-LTA: a DSS with `material`, the certificates every signature and
 * time-stamp in the file carries and, from `revocation`, their issuers' CRLs, then a document
 * time-stamp over it. A CRL that cannot be had leaves the file without it (a finding says so);
 * a CRL that lists one of the certificates stops the archiving: no file is made whose archive
 * time-stamp would vouch for a revoked signer.
 */
export async function archive(
  pdf: Buffer,
  material: ValidationMaterial,
  timestamper: SignatureTimestamper,
  revocation?: RevocationSource,
): Promise<Archived> {
  const carried = (await signatureContents(pdf)).flatMap((s) => certificatesOfCms(s.der));
  const certificates = [...material.certificates, ...carried];
  const found = revocation ? await revocation(certificates) : { crls: [], findings: [] };
  const revoked = found.findings.find((f) => f.outcome === 'revoked');
  if (revoked) {
    return {
      pdf: undefined,
      reason: `${revoked.certificate} is ${revoked.reason ?? 'revoked'} (${revoked.url ?? ''})`,
      revocation: found.findings,
    };
  }
  const withDss = await addDss(pdf, {
    certificates,
    crls: [...(material.crls ?? []), ...found.crls],
    ...(material.ocsps ? { ocsps: material.ocsps } : {}),
  });
  const stamped = await addDocumentTimestamp(withDss, timestamper);
  return stamped
    ? { pdf: stamped, revocation: found.findings }
    : { pdf: undefined, reason: 'no time-stamp authority answered', revocation: found.findings };
}
