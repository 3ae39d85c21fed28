import { describe, expect, it } from 'vitest';
import { checkPdfRevisions } from '../../src/pdf/revision-check.js';
import { fixtureBytes } from '../helpers.js';
import { pdf } from './build.js';
import {
  appendRevision,
  appendXrefStreamRevision,
  flateStream,
  lastTrailer,
  objectBody,
  objectNumber,
  rawStream,
  withEntry,
} from './incremental.js';
import {
  catalog,
  fieldNum,
  modified,
  next,
  pdfStep,
  range,
  receipt,
  root,
} from './revision-fixture.js';

/**
 * How the revisions themselves are read: every object a revision holds is listed by it, every
 * signature is listed by some revision, nothing follows the last one, the /Prev chain goes back
 * and ends, and a signature's unsigned gap is its own /Contents.
 */
describe('the revisions of a receipt PDF, read whole', () => {
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
