import { describe, expect, it } from 'vitest';
import {
  ScreeningLists,
  STRONG_MATCH_THRESHOLD,
  UnknownScreeningSourceError,
  type ScreeningListSource,
} from '../../src/screening/lists.js';
import { OFAC_FIXTURE_DIR, SAMPLE_LISTS_DIR } from '../receipts/checks/helpers.js';
import { loadScreeningLists } from '../../src/files/screening-lists.js';

const HEADER =
  'id,schema,name,aliases,birth_date,countries,addresses,identifiers,sanctions,phones,emails,dataset,first_seen,last_seen,last_change';
const row = (id: string, name: string) => `${id},Person,${name},,,,,,,,,test,,,`;

describe('ScreeningLists over its port', () => {
  /** Lists held in memory: what screening needs from a source is its ids, names and bytes. */
  function memorySource(texts: Record<string, string>): ScreeningListSource & { reads: number } {
    const source = {
      reads: 0,
      lists: async () => new Map(Object.keys(texts).map((id) => [id, `${id}.csv`])),
      read: async (id: string) => {
        source.reads += 1;
        return new TextEncoder().encode(texts[id]);
      },
    };
    return source;
  }

  it('reads each list once at load and again only on forceRefresh', async () => {
    const texts = { watch: `${HEADER}\n${row('W-1', 'Original Listed Person')}\n` };
    const source = memorySource(texts);
    const lists = await ScreeningLists.load(source);
    expect(lists.knownSourceIds()).toEqual(['watch']);
    expect(source.reads).toBe(1);
    texts.watch = `${HEADER}\n${row('W-2', 'Newly Added Person')}\n`;
    expect(await lists.screen('Newly Added Person')).toEqual([]);
    expect(await lists.screen('Newly Added Person', [], { forceRefresh: true })).toMatchObject([
      { entryId: 'W-2', strength: 'strong' },
    ]);
    expect(source.reads).toBe(2);
  });

  it('names the list in a parse error by the name its source gives', async () => {
    const source = memorySource({ broken: `${HEADER}\n"unterminated\n` });
    await expect(ScreeningLists.load(source)).rejects.toThrow(/^broken\.csv: /);
  });
});

describe('ScreeningLists.screen', () => {
  it('finds a strong match whatever the case, accents, punctuation and word order', async () => {
    const lists = await loadScreeningLists(SAMPLE_LISTS_DIR);
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
    const lists = await loadScreeningLists(OFAC_FIXTURE_DIR);
    const matches = await lists.screen('Kwentin Testmann', ['alt', 'sdn']);
    expect(matches[0]).toMatchObject({ sourceId: 'alt', entryId: '9001', strength: 'strong' });
    expect(matches[0]?.matchedName).toBe('TESTMANN, Kwentin');
  });

  it('reports weak matches and sorts by score', async () => {
    const lists = await loadScreeningLists(SAMPLE_LISTS_DIR);
    const matches = await lists.screen('Ivo Marrowby Smith');
    expect(matches.length).toBeGreaterThan(0);
    expect(matches[0]).toMatchObject({ entryId: 'SYN-0001', strength: 'weak' });
    expect(matches[0]?.score).toBeLessThan(STRONG_MATCH_THRESHOLD);
    const scores = matches.map((m) => m.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('returns nothing for an unrelated or empty name', async () => {
    const lists = await loadScreeningLists(SAMPLE_LISTS_DIR);
    expect(await lists.screen('Jane Q. Homeowner')).toEqual([]);
    expect(await lists.screen('--')).toEqual([]);
  });

  it('rejects unknown source ids before screening, with code unknown_screening_source', async () => {
    const lists = await loadScreeningLists(SAMPLE_LISTS_DIR);
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
