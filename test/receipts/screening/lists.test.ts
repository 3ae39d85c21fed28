import { copyFile, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScreeningListFormatError } from '../../../src/receipts/screening/list-format.js';
import {
  ScreeningLists,
  STRONG_MATCH_THRESHOLD,
  UnknownScreeningSourceError,
} from '../../../src/receipts/screening/lists.js';
import { OFAC_FIXTURE_DIR, REPO_ROOT, SAMPLE_LISTS_DIR } from '../checks/helpers.js';

const HEADER =
  'id,schema,name,aliases,birth_date,countries,addresses,identifiers,sanctions,phones,emails,dataset,first_seen,last_seen,last_change';
const row = (id: string, name: string) => `${id},Person,${name},,,,,,,,,test,,,`;

describe('ScreeningLists.load', () => {
  it('has no lists without a directory', async () => {
    const lists = await ScreeningLists.load(undefined);
    expect(lists.knownSourceIds()).toEqual([]);
    expect(await lists.screen('Anyone')).toEqual([]);
  });

  it('names each *.csv file by its name without extension and ignores other files', async () => {
    const lists = await ScreeningLists.load(SAMPLE_LISTS_DIR);
    expect(lists.knownSourceIds()).toEqual(['sample-synthetic']);
    expect(lists.has('sample-synthetic')).toBe(true);
    expect(lists.has('README')).toBe(false);
    expect(lists.info('sample-synthetic')).toMatchObject({
      format: 'opensanctions',
      entries: 10,
      sha256: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
  });

  it('reads OFAC sdn.csv and alt.csv side by side', async () => {
    const lists = await ScreeningLists.load(OFAC_FIXTURE_DIR);
    expect(lists.knownSourceIds()).toEqual(['alt', 'sdn']);
    expect(lists.info('alt')?.format).toBe('ofac-alt');
    expect(lists.info('sdn')?.format).toBe('ofac-sdn');
  });

  it('fails loudly on a missing directory or a file that is not a list, naming the file', async () => {
    await expect(ScreeningLists.load(path.join(REPO_ROOT, 'no-such-dir'))).rejects.toThrow(
      /ENOENT/,
    );
    const bad = path.join(REPO_ROOT, 'test/fixtures/screening/bad');
    await expect(ScreeningLists.load(bad)).rejects.toThrow(ScreeningListFormatError);
    await expect(ScreeningLists.load(bad)).rejects.toThrow(
      /broken\.csv: unterminated quoted field/,
    );
  });
});

describe('ScreeningLists.screen', () => {
  it('finds a strong match whatever the case, accents, punctuation and word order', async () => {
    const lists = await ScreeningLists.load(SAMPLE_LISTS_DIR);
    const [match] = await lists.screen('QUILLFEATHER, zephyrine');
    expect(match).toEqual({
      sourceId: 'sample-synthetic',
      entryId: 'SYN-0002',
      matchedName: 'Zephyrine Quillfeather',
      score: 1,
      strength: 'strong',
    });
  });

  it('matches aliases and reports the best-scoring name of the entry', async () => {
    const lists = await ScreeningLists.load(OFAC_FIXTURE_DIR);
    const matches = await lists.screen('Kwentin Testmann', ['alt', 'sdn']);
    expect(matches[0]).toMatchObject({ sourceId: 'alt', entryId: '9001', strength: 'strong' });
    expect(matches[0]?.matchedName).toBe('TESTMANN, Kwentin');
  });

  it('reports weak matches and sorts by score', async () => {
    const lists = await ScreeningLists.load(SAMPLE_LISTS_DIR);
    const matches = await lists.screen('Ivo Marrowby Smith');
    expect(matches.length).toBeGreaterThan(0);
    expect(matches[0]).toMatchObject({ entryId: 'SYN-0001', strength: 'weak' });
    expect(matches[0]?.score).toBeLessThan(STRONG_MATCH_THRESHOLD);
    const scores = matches.map((m) => m.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('returns nothing for an unrelated or empty name', async () => {
    const lists = await ScreeningLists.load(SAMPLE_LISTS_DIR);
    expect(await lists.screen('Jane Q. Homeowner')).toEqual([]);
    expect(await lists.screen('--')).toEqual([]);
  });

  it('rejects unknown source ids before screening, with code unknown_screening_source', async () => {
    const lists = await ScreeningLists.load(SAMPLE_LISTS_DIR);
    expect(lists.unknownSources(['sample-synthetic', 'ofac', 'ofac', 'eu'])).toEqual([
      'ofac',
      'eu',
    ]);
    const error = await lists
      .screen('Anyone', ['sample-synthetic', 'ofac'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownScreeningSourceError);
    expect(error).toMatchObject({ code: 'unknown_screening_source', sourceIds: ['ofac'] });
  });
});

describe('forceRefresh', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'screening-'));
    await writeFile(
      path.join(dir, 'watch.csv'),
      `${HEADER}\n${row('W-1', 'Original Listed Person')}\n`,
    );
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('uses the cached copy unless asked, then re-reads the changed file', async () => {
    const lists = await ScreeningLists.load(dir);
    const before = lists.info('watch')?.sha256;
    await writeFile(
      path.join(dir, 'watch.csv'),
      `${HEADER}\n${row('W-2', 'Newly Added Person')}\n`,
    );
    expect(await lists.screen('Newly Added Person', ['watch'])).toEqual([]);
    const refreshed = await lists.screen('Newly Added Person', ['watch'], { forceRefresh: true });
    expect(refreshed).toMatchObject([{ entryId: 'W-2', strength: 'strong' }]);
    expect(lists.info('watch')?.sha256).not.toBe(before);
    expect(await lists.screen('Original Listed Person', ['watch'])).toEqual([]);
  });

  it('propagates a read error of a list that disappeared', async () => {
    const lists = await ScreeningLists.load(dir);
    await rm(path.join(dir, 'watch.csv'));
    await expect(lists.screen('Anyone', ['watch'], { forceRefresh: true })).rejects.toThrow(
      /ENOENT/,
    );
  });

  it.runIf(process.platform !== 'win32')('follows symbolic links to list files', async () => {
    await symlink(path.join(dir, 'watch.csv'), path.join(dir, 'linked.csv'));
    const lists = await ScreeningLists.load(dir);
    expect(lists.knownSourceIds()).toEqual(['linked', 'watch']);
  });

  it.runIf(process.platform === 'linux')('refuses two files with the same source id', async () => {
    await copyFile(path.join(dir, 'watch.csv'), path.join(dir, 'watch.CSV'));
    await expect(ScreeningLists.load(dir)).rejects.toThrow(/source id "watch"/);
  });
});
