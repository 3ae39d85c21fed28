import { expect } from 'vitest';
import { readBundle } from '../../src/read.js';
import { checkPdfRevisions } from '../../src/pdf/revision-check.js';
import type { PdfSignature } from '../../src/pdf/signature.js';
import { verifyBundle } from '../../src/verify.js';
import { fixtureBytes, pinnedKeys } from '../helpers.js';
import { lastTrailer, objectBody, objectNumber } from './incremental.js';

/**
 * The recorded receipt PDF (a rendered file and its signature: two revisions) and the objects a
 * forged third revision touches, shared by the revision tests; `modified` and `pdfStep` read a
 * forged file as the verifier does.
 */
export const receipt = fixtureBytes('receipt.pdf');
export const root = Number(lastTrailer(receipt).root.split(' ')[0]);
export const catalog = objectBody(receipt, root);
export const formNum = Number(/\/AcroForm (\d+) 0 R/.exec(catalog)?.[1]);
export const fieldNum = objectNumber(receipt, /\/FT \/Sig/);
export const pageNum = Number(/\/P (\d+) 0 R/.exec(objectBody(receipt, fieldNum))?.[1]);
export const contentNum = Number(/\/Contents (\d+) 0 R/.exec(objectBody(receipt, pageNum))?.[1]);
export const next = lastTrailer(receipt).size;
export const range = `bytes ${receipt.length}-`;

export async function modified(pdf: Uint8Array): Promise<string> {
  const result = await checkPdfRevisions(pdf);
  expect(result).toMatchObject({ present: true, ok: false, modified: true });
  return (result as { reason: string }).reason;
}

export async function pdfStep(pdf: Uint8Array) {
  const read = await readBundle(pdf);
  if (!read.ok) throw new Error(read.reason);
  const verdict = verifyBundle(read.bundle, {
    trust: { keys: pinnedKeys() },
    pdf: {
      ...(read.printed ? { printed: read.printed } : {}),
      signature: read.signature as PdfSignature,
    },
  });
  return {
    verdict,
    step: verdict.steps.find((s) => s.id === 'pdf-signature'),
    bundle: read.bundle,
  };
}
