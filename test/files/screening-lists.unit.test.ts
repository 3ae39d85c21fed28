import { copyFile, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadScreeningLists } from '../../src/files/screening-lists.js';
import { ScreeningListFormatError } from '../../src/screening/list-format.js';
import { OFAC_FIXTURE_DIR, REPO_ROOT, SAMPLE_LISTS_DIR } from '../receipts/checks/helpers.js';

const HEADER =
  'id,schema,name,aliases,birth_date,countries,addresses,identifiers,sanctions,phones,emails,dataset,first_seen,last_seen,last_change';
const row = (id: string, name: string) => `${id},Person,${name},,,,,,,,,test,,,`;

describe('the lists of SCREENING_LISTS_DIR', () => {
  it('has no lists without a directory', async () => {
    const lists = await loadScreeningLists(undefined);
    expect(lists.knownSourceIds()).toEqual([]);
    expect(await lists.screen('Anyone')).toEqual([]);
  });

  it('names each *.csv file by its name without extension and ignores other files', async () => {
    const lists = await loadScreeningLists(SAMPLE_LISTS_DIR);
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
    const lists = await loadScreeningLists(OFAC_FIXTURE_DIR);
    expect(lists.knownSourceIds()).toEqual(['alt', 'sdn']);
    expect(lists.info('alt')?.format).toBe('ofac-alt');
    expect(lists.info('sdn')?.format).toBe('ofac-sdn');
  });

  it('fails loudly on a missing directory or a file that is not a list, naming the file', async () => {
    await expect(loadScreeningLists(path.join(REPO_ROOT, 'no-such-dir'))).rejects.toThrow(/ENOENT/);
    const bad = path.join(REPO_ROOT, 'test/fixtures/screening/bad');
    await expect(loadScreeningLists(bad)).rejects.toThrow(ScreeningListFormatError);
    await expect(loadScreeningLists(bad)).rejects.toThrow(/broken\.csv: unterminated quoted field/);
  });
});

describe('list files read again on forceRefresh', () => {
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
    const lists = await loadScreeningLists(dir);
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
    const lists = await loadScreeningLists(dir);
    await rm(path.join(dir, 'watch.csv'));
    await expect(lists.screen('Anyone', ['watch'], { forceRefresh: true })).rejects.toThrow(
      /ENOENT/,
    );
  });

  it.runIf(process.platform !== 'win32')('follows symbolic links to list files', async () => {
    await symlink(path.join(dir, 'watch.csv'), path.join(dir, 'linked.csv'));
    const lists = await loadScreeningLists(dir);
    expect(lists.knownSourceIds()).toEqual(['linked', 'watch']);
  });

  it.runIf(process.platform === 'linux')('refuses two files with the same source id', async () => {
    await copyFile(path.join(dir, 'watch.csv'), path.join(dir, 'watch.CSV'));
    await expect(loadScreeningLists(dir)).rejects.toThrow(/source id "watch"/);
  });
});
