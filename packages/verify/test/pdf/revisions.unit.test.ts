import { describe, expect, it } from 'vitest';
import { checkPdfRevisions } from '../../src/pdf/revision-check.js';
import { fixtureBytes } from '../helpers.js';
import {
  appendRevision,
  appendXrefStreamRevision,
  flateStream,
  objectBody,
  objectNumber,
  prepareDocTimeStamp,
  rawStream,
  withEntry,
} from './incremental.js';
import {
  catalog,
  contentNum,
  fieldNum,
  formNum,
  modified,
  next,
  pageNum,
  pdfStep,
  range,
  receipt,
  root,
} from './revision-fixture.js';

/**
 * What a revision appended after signing may do: a third revision is appended by hand to the
 * recorded receipt for each way of hiding or defeating the signature, and for the additions
 * PAdES allows a later validator (a DSS, a document time-stamp).
 */
describe('the PDF signature, judged on every revision', () => {
  it('accepts the recorded receipt: its signature covers the whole file', async () => {
    const result = await checkPdfRevisions(receipt);
    expect(result).toMatchObject({ present: true, ok: true, coverage: 'the whole file' });
    const { step } = await pdfStep(receipt);
    expect(step?.status, step?.detail).toBe('PASS');
  });

  it('refuses a revision that removes /AcroForm, naming the revision', async () => {
    const forged = appendRevision(receipt, { objects: { [root]: withEntry(catalog, 'AcroForm') } });
    const reason = await modified(forged);
    expect(reason).toContain(`revision 3 of 3 (${range}`);
    expect(reason).toContain("removes the catalog's /AcroForm");
    const { step, verdict } = await pdfStep(forged);
    expect(step?.status).toBe('FAIL');
    expect(step?.detail).toMatch(
      /^modified_after_signing: the file was changed after it was signed/,
    );
    expect(verdict.verdict).toBe('rejected');
    expect(verdict.exitCode).toBe(1);
  });

  it('refuses a revision that sets /Fields [] or retypes the signature field to /Tx', async () => {
    const emptied = appendRevision(receipt, {
      objects: {
        [formNum]: objectBody(receipt, formNum).replace(/\/Fields \[[^\]]*\]/, '/Fields []'),
      },
    });
    const reason = await modified(emptied);
    expect(reason).toContain('revision 3 of 3');
    expect(reason).toContain("removes fields (1 before, 0 now) in the AcroForm's /Fields");
    const retyped = appendRevision(receipt, {
      objects: { [fieldNum]: objectBody(receipt, fieldNum).replace('/FT /Sig', '/FT /Tx') },
    });
    const why = await modified(retyped);
    expect(why).toContain('revision 3 of 3');
    expect(why).toContain(`changes the signature field (object ${fieldNum}: /FT)`);
  });

  it("refuses a revision that draws over page 1, by a new content stream or by the page's own", async () => {
    const cover = rawStream(
      '',
      '1 1 1 rg 50 600 400 100 re f 0 0 0 rg BT /F1 12 Tf 60 650 Td (Mallory) Tj ET',
    );
    const added = appendRevision(receipt, {
      objects: {
        [next]: cover,
        [pageNum]: objectBody(receipt, pageNum).replace(
          `/Contents ${contentNum} 0 R`,
          `/Contents [${contentNum} 0 R ${next} 0 R]`,
        ),
      },
    });
    const reason = await modified(added);
    expect(reason).toContain(`revision 3 of 3 (${range}`);
    expect(reason).toContain(`changes page 1's content (object ${pageNum}'s /Contents)`);
    expect(reason).toContain(`adds object ${next} (a stream)`);
    const replaced = appendRevision(receipt, {
      objects: { [contentNum]: flateStream('', 'BT ET') },
    });
    expect(await modified(replaced)).toContain(`changes page 1's content (object ${contentNum}: `);
  });

  it('refuses a BLOCK receipt whose attachment a new revision swaps for a genuine ALLOW bundle', async () => {
    const block = fixtureBytes('receipt-block.pdf');
    const fileNum = objectNumber(block, /\/Type \/EmbeddedFile/);
    const dict = objectBody(block, fileNum).split('stream')[0] ?? '';
    const params = /\/Params\s*<<[^>]*>>/.exec(dict)?.[0] ?? '';
    const swapped = appendRevision(block, {
      objects: {
        [fileNum]: flateStream(
          `/Type /EmbeddedFile /Subtype /application#2Fjson ${params}`,
          fixtureBytes('bundle.json'),
        ),
      },
    });
    const reason = await modified(swapped);
    expect(reason).toContain(`revision 3 of 3 (bytes ${block.length}-`);
    expect(reason).toContain(`changes the attachment receipt-bundle.json (object ${fileNum}`);
    const { step, verdict, bundle } = await pdfStep(swapped);
    expect((bundle as { receipt: { decision: string } }).receipt.decision).toBe('ALLOW');
    expect(step?.status).toBe('FAIL');
    expect(verdict.verdict).toBe('rejected');
  });

  it('accepts a revision that only adds a DSS (its streams and the catalog entry)', async () => {
    const cert = Buffer.from('3082', 'hex').toString('latin1');
    const dss = appendRevision(receipt, {
      objects: {
        [next]: `<< /Type /DSS /Certs [${next + 1} 0 R] /VRI << >> >>`,
        [next + 1]: rawStream('', cert),
        [root]: withEntry(catalog, 'DSS', `${next} 0 R`),
      },
    });
    const result = await checkPdfRevisions(dss);
    expect(result).toMatchObject({ present: true, ok: true });
    expect((result as { coverage: string }).coverage).toBe(
      `revision 2 of 3 (bytes 0-${receipt.length}); after it only revision 3 adds a DSS dictionary`,
    );
    const { step, verdict } = await pdfStep(dss);
    expect(step?.status, step?.detail).toBe('PASS');
    expect(verdict.authentic).toBe(true);
  });

  it('reads a revision written as a cross-reference stream with a PNG predictor', async () => {
    const dss = appendXrefStreamRevision(receipt, {
      [next]: '<< /Type /DSS /OCSPs [] >>',
      [root]: withEntry(catalog, 'DSS', `${next} 0 R`),
    });
    expect(await checkPdfRevisions(dss)).toMatchObject({ ok: true });
    const hidden = appendXrefStreamRevision(receipt, { [root]: withEntry(catalog, 'AcroForm') });
    expect(await modified(hidden)).toContain('revision 3 of 3 (bytes 20901-');
  });

  it('refuses a DSS that refers to a signed object a later revision then changes', async () => {
    const dss = appendRevision(receipt, {
      objects: {
        [next]: `<< /Type /DSS /Certs [${contentNum} 0 R] >>`,
        [root]: withEntry(catalog, 'DSS', `${next} 0 R`),
      },
    });
    expect(await checkPdfRevisions(dss)).toMatchObject({ ok: true });
    const then = appendRevision(dss, { objects: { [contentNum]: flateStream('', 'BT ET') } });
    expect(await modified(then)).toContain(`revision 4 of 4 (bytes ${dss.length}-`);
  });

  it('refuses a signature field added later that is not a document time-stamp', async () => {
    const form = objectBody(receipt, formNum);
    const added = appendRevision(receipt, {
      objects: {
        [next]:
          '<< /Type /Sig /SubFilter /ETSI.CAdES.detached /ByteRange [0 1 2 3] /Contents <00> >>',
        [next + 1]: `<< /FT /Sig /T (second) /V ${next} 0 R /Rect [0 0 0 0] >>`,
        [formNum]: form.replace(/\/Fields \[([^\]]*)\]/, `/Fields [$1 ${next + 1} 0 R]`),
      },
    });
    const reason = await modified(added);
    expect(reason).toContain(
      `adds a form field (object ${next + 1}) that is not a document time-stamp`,
    );
  });

  it('refuses a document time-stamp whose /Contents is not a token over its bytes', async () => {
    const prepared = prepareDocTimeStamp(receipt, {
      field: next + 1,
      value: next,
      form: formNum,
      page: pageNum,
      rect: '0 0 0 0',
    });
    const garbage = prepared.fill(Uint8Array.from([0x30, 0x03, 0x02, 0x01, 0x00]));
    expect(await modified(garbage)).toContain(
      'revision 3 of 3 adds a document time-stamp that is not an RFC 3161 time-stamp token',
    );
  });
});
