import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseListFile, ScreeningListFormatError } from '../../src/screening/list-format.js';
import { OFAC_FIXTURE_DIR, SAMPLE_LISTS_DIR } from '../receipts/checks/helpers.js';

const read = (dir: string, file: string) => readFileSync(path.join(dir, file), 'utf8');

describe('parseListFile', () => {
  it('reads the OpenSanctions targets.simple.csv layout with ;-separated aliases', () => {
    const { format, entries } = parseListFile(read(SAMPLE_LISTS_DIR, 'sample-synthetic.csv'));
    expect(format).toBe('opensanctions');
    expect(entries).toHaveLength(10);
    expect(entries[0]).toEqual({
      entryId: 'SYN-0001',
      names: ['Ivo Fictitious Marrowby', 'Ivo Marrowby', 'Marrowby, Ivo F.'],
    });
    expect(entries.find((e) => e.entryId === 'SYN-0004')?.names).toEqual(['Bartholomew Nonesuch']);
  });

  it('finds OpenSanctions columns by header name, not position', () => {
    const text = 'name,aliases,schema,id\n"Doe, Jane",J. Doe;;Janie Doe,Person,X-1\n';
    expect(parseListFile(text)).toEqual({
      format: 'opensanctions',
      entries: [{ entryId: 'X-1', names: ['Doe, Jane', 'J. Doe', 'Janie Doe'] }],
    });
  });

  it('reads the OFAC sdn.csv layout: no header, -0- as empty, CRLF, trailing 0x1A', () => {
    const { format, entries } = parseListFile(read(OFAC_FIXTURE_DIR, 'sdn.csv'));
    expect(format).toBe('ofac-sdn');
    expect(entries.map((e) => e.entryId)).toEqual(['9001', '9002', '9003', '9004']);
    expect(entries[1]).toEqual({ entryId: '9002', names: ['FIXTURE TRADING CO., LTD.'] });
    expect(entries[2]?.names).toEqual(['ÁLVAREZ FICTICIO, José Ramón']);
  });

  it('reads the OFAC alt.csv layout, grouping aliases by ent_num', () => {
    const { format, entries } = parseListFile(read(OFAC_FIXTURE_DIR, 'alt.csv'));
    expect(format).toBe('ofac-alt');
    expect(entries).toEqual([
      { entryId: '9001', names: ['TESTMANN, Kwentin', 'EXAMPLE, Q.'] },
      { entryId: '9003', names: ['ALVAREZ, Jose'] },
    ]);
  });

  it.each([
    ['an empty file', ''],
    ['an unknown layout', 'name,country\nJane Doe,ZZ\n'],
    [
      'an OFAC record of the wrong width',
      '1,"DOE, Jane",individual,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \n2,"X"\n',
    ],
    ['an OpenSanctions row of the wrong width', 'id,schema,name\nX-1,Person\n'],
  ])('rejects %s', (_label, text) => {
    expect(() => parseListFile(text)).toThrow(ScreeningListFormatError);
  });
});
