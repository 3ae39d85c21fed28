import { describe, expect, it } from 'vitest';
import { readBundle } from '../../src/read.js';
import { checkPdfRevisions } from '../../src/pdf/revision-check.js';
import type { PdfSignature } from '../../src/pdf/signature.js';
import { verifyBundle } from '../../src/verify.js';
import { fixtureBytes, pinnedKeys } from '../helpers.js';
import { pdf } from './build.js';
import {
  appendRevision,
  appendXrefStreamRevision,
  flateStream,
  lastTrailer,
  objectBody,
  objectNumber,
  prepareDocTimeStamp,
  rawStream,
  withEntry,
} from './incremental.js';

/**
 * The recorded receipt PDFs (a rendered file and its signature: two revisions), with a third
 * revision appended by hand for each way of hiding or defeating the signature, and for the
 * additions PAdES allows a later validator (a DSS).
 */

const receipt = fixtureBytes('receipt.pdf');
const root = Number(lastTrailer(receipt).root.split(' ')[0]);
const catalog = objectBody(receipt, root);
const formNum = Number(/\/AcroForm (\d+) 0 R/.exec(catalog)?.[1]);
const fieldNum = objectNumber(receipt, /\/FT \/Sig/);
const pageNum = Number(/\/P (\d+) 0 R/.exec(objectBody(receipt, fieldNum))?.[1]);
const contentNum = Number(/\/Contents (\d+) 0 R/.exec(objectBody(receipt, pageNum))?.[1]);
const next = lastTrailer(receipt).size;
const range = `bytes ${receipt.length}-`;

async function modified(pdf: Uint8Array): Promise<string> {
  const result = await checkPdfRevisions(pdf);
  expect(result).toMatchObject({ present: true, ok: false, modified: true });
  return (result as { reason: string }).reason;
}

async function pdfStep(pdf: Uint8Array) {
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

  it('refuses a revision holding an object its section does not list (a scanning reader sees it)', async () => {
    const block = fixtureBytes('receipt-block.pdf');
    const fileNum = objectNumber(block, /\/Type \/EmbeddedFile/);
    const object = Buffer.concat([
      Buffer.from(`${fileNum} 0 obj\n`),
      flateStream('/Type /EmbeddedFile', fixtureBytes('bundle.json')),
      Buffer.from('\nendobj\n'),
    ]);
    const listed = appendRevision(block, { objects: {} });
    const at = block.length;
    const tail = Buffer.from(listed.subarray(at)).toString('latin1');
    const moved = tail.replace(/startxref\n\d+/, `startxref\n${at + object.length}`);
    const hidden = new Uint8Array(
      Buffer.concat([Buffer.from(block), object, Buffer.from(moved, 'latin1')]),
    );
    const { bundle, step } = await pdfStep(hidden);
    expect((bundle as { receipt: { decision: string } }).receipt.decision).toBe('ALLOW');
    expect(step?.status).toBe('FAIL');
    expect(step?.detail).toContain(
      `revision 3 of 3 (bytes ${at}-${hidden.length}) holds object ${fileNum} at byte ${at}, which its cross-reference section does not list`,
    );
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

  it('refuses a file whose revisions were rewritten so that none lists the signature', async () => {
    const text = Buffer.from(receipt).toString('latin1');
    const sigNum = Number(/\/V (\d+) 0 R/.exec(objectBody(receipt, fieldNum))?.[1]);
    const offsets = new Map<number, number>();
    for (const m of text.matchAll(/(?:^|\n)(\d+) 0 obj/g)) {
      offsets.set(Number(m[1]), (m.index ?? 0) + (m[0].startsWith('\n') ? 1 : 0));
    }
    const body = withEntry(catalog, 'AcroForm');
    const at = receipt.length;
    const newCatalog = `${root} 0 obj\n${body}\nendobj\n`;
    offsets.set(root, at);
    const size = Math.max(...offsets.keys()) + 1;
    const rows = Array.from({ length: size }, (_, n) =>
      n === 0 || n === sigNum || !offsets.has(n)
        ? '0000000000 65535 f \n'
        : `${String(offsets.get(n)).padStart(10, '0')} 00000 n \n`,
    );
    const xrefAt = at + newCatalog.length;
    const tail = `${newCatalog}xref\n0 ${size}\n${rows.join('')}trailer\n<< /Size ${size} /Root ${root} 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
    const rewritten = new Uint8Array(
      Buffer.concat([Buffer.from(receipt), Buffer.from(tail, 'latin1')]),
    );
    expect(await modified(rewritten)).toContain('is listed by no revision');
  });

  it('refuses bytes appended after the last revision', async () => {
    const appended = new Uint8Array(Buffer.concat([Buffer.from(receipt), Buffer.from('% more\n')]));
    expect(await modified(appended)).toContain(
      `bytes ${receipt.length}-${appended.length} follow the last revision`,
    );
  });

  it('answers a typed failure for a /Prev loop, a /Prev forward and too many revisions', async () => {
    const text = Buffer.from(receipt).toString('latin1');
    const looped = Buffer.from(
      text.replace('/Prev 14192', `/Prev ${lastTrailer(receipt).startxref}`),
      'latin1',
    );
    expect(await checkPdfRevisions(looped)).toMatchObject({ ok: false });
    expect((await checkPdfRevisions(looped)) as { reason: string }).toMatchObject({
      reason: expect.stringContaining('does not go back'),
    });
    let many = receipt;
    for (let i = 0; i < 32; i += 1) many = appendRevision(many, { objects: {} });
    const result = await checkPdfRevisions(many);
    expect(result).toMatchObject({
      ok: false,
      reason: expect.stringContaining('more than 32 revisions'),
    });
  });

  it('refuses a signature whose unsigned gap reaches past its own /Contents', async () => {
    const placeholder = `[0 ${'0'.repeat(10)} ${'0'.repeat(10)} ${'0'.repeat(10)}]`;
    const build = (gapEnd: (text: string) => number) => {
      const bytes = Buffer.from(
        pdf([
          '<< /Type /Catalog /Pages 2 0 R >>',
          '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
          '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>',
          `<< /Type /Sig /SubFilter /ETSI.CAdES.detached /ByteRange ${placeholder} /Contents <3000> >>`,
          '<< /Note <41> >>',
        ]),
      );
      const text = bytes.toString('latin1');
      const a = text.indexOf('<3000>');
      const b = gapEnd(text);
      const range = [a, b, bytes.length - b].map((n) => String(n).padStart(10, '0')).join(' ');
      bytes.write(`[0 ${range}]`, text.indexOf(placeholder), 'latin1');
      return new Uint8Array(bytes);
    };
    const framed = await checkPdfRevisions(build((t) => t.indexOf('<3000>') + 6));
    expect(framed).toMatchObject({ ok: false, reason: expect.stringContaining('malformed') });
    const widened = await checkPdfRevisions(build((t) => t.indexOf('<41>') + 4));
    expect(widened).toMatchObject({
      ok: false,
      modified: true,
      reason: 'the signature does not cover the file from its first byte but its own /Contents',
    });
  });

  it('refuses a revision that points the trailer at another catalog', async () => {
    const replaced = appendRevision(receipt, {
      objects: { [next]: withEntry(catalog, 'AcroForm') },
      root: `${next} 0 R`,
    });
    const reason = await modified(replaced);
    expect(reason).toContain(`revision 3 of 3 (${range}`);
    expect(reason).toContain(`replaces the catalog (object ${root})`);
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

  it('refuses an object stream holding an object its section does not list', async () => {
    const member = withEntry(catalog, 'AcroForm');
    const header = `${root} 0 `;
    const data = `${header}${member}`;
    const objStm = rawStream(`/Type /ObjStm /N 1 /First ${header.length}`, data);
    const forged = appendXrefStreamRevision(receipt, { [next]: objStm });
    expect(await modified(forged)).toContain(`revision 3 of 3 (${range}`);
    expect(await modified(forged)).toContain(
      `holds object ${root} in object stream ${next}, unlisted there by its section`,
    );
  });
});
