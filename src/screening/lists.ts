import { createHash } from 'node:crypto';
import { ServiceError } from '../errors.js';
import { CsvParseError } from './csv.js';
import { parseListFile, ScreeningListFormatError, type ListFormat } from './list-format.js';
import { nameTokens } from './normalise.js';
import { NameIndex } from './name-index.js';
import { maxNameSimilarity, nameSimilarity } from './similarity.js';

/** Score at or above which a match is strong (BLOCK-level). Identical normalised names score 1. */
export const STRONG_MATCH_THRESHOLD = 0.92;
/** Score at or above which a match is weak (FLAG-level); below it a name is not a match. */
export const WEAK_MATCH_THRESHOLD = 0.8;

export type MatchStrength = 'strong' | 'weak';

/** One listed entry whose best-scoring name reached {@link WEAK_MATCH_THRESHOLD}. */
export interface ScreeningMatch {
  sourceId: string;
  entryId: string;
  matchedName: string;
  score: number;
  strength: MatchStrength;
}

/** What an auditor needs to identify the list version a screening used. */
export interface ScreeningListInfo {
  sourceId: string;
  format: ListFormat;
  entries: number;
  /** `sha256:` digest of the list file bytes as last read. */
  sha256: string;
  /** When the file was last read (ISO 8601). */
  loadedAt: string;
}

export interface ScreenOptions {
  /** Re-read the requested list files from disk instead of using the cached copies. */
  forceRefresh?: boolean;
}

/** A requested source id is not a configured list: the request is refused (HTTP 400). */
export class UnknownScreeningSourceError extends ServiceError<'unknown_screening_source'> {
  override name = 'UnknownScreeningSourceError';
  constructor(
    readonly sourceIds: string[],
    knownSourceIds: readonly string[] = [],
  ) {
    super('unknown_screening_source', `unknown screening source: ${sourceIds.join(', ')}`, {
      details: { unknownSourceIds: sourceIds, knownSourceIds: [...knownSourceIds] },
    });
  }
}

interface IndexedName {
  name: string;
  tokens: string[];
}

interface LoadedList {
  info: ScreeningListInfo;
  /** Every name of every entry, in file order (an entry's names are consecutive). */
  names: Array<IndexedName & { entry: number }>;
  entryIds: string[];
  /** Which names can match a subject at all (name-index.ts): only those are scored. */
  index: NameIndex;
}

/**
 * Where the lists come from, declared here and implemented by `src/files/screening-lists.ts`
 * (one `*.csv` file per list in SCREENING_LISTS_DIR). Read errors propagate.
 */
export interface ScreeningListSource {
  /** The lists by source id, each with the name its errors are reported under (its file name). */
  lists(): Promise<ReadonlyMap<string, string>>;
  /** The list's bytes as they are now. */
  read(sourceId: string): Promise<Uint8Array>;
}

/** The strength of a score, or undefined when it is below the weak threshold. */
export function matchStrength(score: number): MatchStrength | undefined {
  if (score >= STRONG_MATCH_THRESHOLD) return 'strong';
  return score >= WEAK_MATCH_THRESHOLD ? 'weak' : undefined;
}

/**
 * The sanctions/watch lists of one source (SCREENING_LISTS_DIR: one list per `*.csv` file,
 * identified by the file name without extension). The set of lists is fixed when loaded; the
 * contents of a list are cached and re-read on `forceRefresh`.
 */
export class ScreeningLists {
  private constructor(
    private readonly source: ScreeningListSource | undefined,
    private readonly files: ReadonlyMap<string, string>,
    private readonly lists: Map<string, LoadedList>,
  ) {}

  /**
   * Read every list of `source`. No source (undefined) gives an empty set of lists.
   * Throws when the source cannot be read or a file is not a readable list, naming the file,
   * so a misconfigured deployment fails at start-up rather than screening against nothing.
   */
  static async load(source: ScreeningListSource | undefined): Promise<ScreeningLists> {
    const lists = new Map<string, LoadedList>();
    if (source === undefined) return new ScreeningLists(undefined, new Map(), lists);
    const files = await source.lists();
    for (const [sourceId, file] of files) {
      lists.set(sourceId, readList(sourceId, file, await source.read(sourceId)));
    }
    return new ScreeningLists(source, files, lists);
  }

  /** Configured source ids, sorted. */
  knownSourceIds(): string[] {
    return [...this.files.keys()].sort();
  }

  has(sourceId: string): boolean {
    return this.files.has(sourceId);
  }

  /** The ids among `sourceIds` that are not configured lists (deduplicated, input order). */
  unknownSources(sourceIds: readonly string[]): string[] {
    return [...new Set(sourceIds)].filter((id) => !this.has(id));
  }

  /** Version information of a configured list, or undefined for an unknown id. */
  info(sourceId: string): ScreeningListInfo | undefined {
    return this.lists.get(sourceId)?.info;
  }

  /**
   * Screen `subjectName` against `sourceIds` (all lists when undefined or empty). Returns one
   * match per listed entry at or above the weak threshold, best score first (ties by source id,
   * then entry id). Throws UnknownScreeningSourceError before reading anything when an id is
   * unknown; with `forceRefresh`, read errors of the list files propagate.
   */
  async screen(
    subjectName: string,
    sourceIds?: readonly string[],
    options: ScreenOptions = {},
  ): Promise<ScreeningMatch[]> {
    const ids = sourceIds && sourceIds.length > 0 ? [...new Set(sourceIds)] : this.knownSourceIds();
    const unknown = this.unknownSources(ids);
    if (unknown.length > 0) throw new UnknownScreeningSourceError(unknown, this.knownSourceIds());
    const subject = nameTokens(subjectName);
    const matches: ScreeningMatch[] = [];
    for (const id of ids) {
      const list = options.forceRefresh ? await this.refresh(id) : this.lists.get(id);
      if (list) matches.push(...matchList(id, list, subject));
    }
    return matches.sort(
      (x, y) =>
        y.score - x.score ||
        compareText(x.sourceId, y.sourceId) ||
        compareText(x.entryId, y.entryId),
    );
  }

  private async refresh(sourceId: string): Promise<LoadedList | undefined> {
    if (this.source === undefined) return undefined; // no source: every id is unknown
    const bytes = await this.source.read(sourceId);
    const list = readList(sourceId, this.files.get(sourceId) ?? '', bytes);
    this.lists.set(sourceId, list);
    return list;
  }
}

/** Locale-independent ordering, so results do not depend on the server's locale. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The entries whose best-scoring name reaches the weak threshold. Only the names the index says
 * can reach it are scored (ascending, so entries come in file order and, within an entry, the
 * first of equally scoring names is kept, as a scan of every name would).
 */
function matchList(sourceId: string, list: LoadedList, subject: string[]): ScreeningMatch[] {
  const best = new Map<number, { name: string; score: number }>();
  for (const nameId of list.index.candidates(subject, WEAK_MATCH_THRESHOLD)) {
    const { name, tokens, entry } = list.names[nameId]!;
    if (maxNameSimilarity(subject.length, tokens.length) < WEAK_MATCH_THRESHOLD) continue;
    const score = nameSimilarity(subject, tokens);
    const current = best.get(entry);
    if (current === undefined || score > current.score) best.set(entry, { name, score });
  }
  const matches: ScreeningMatch[] = [];
  for (const [entry, { name: matchedName, score }] of best) {
    const strength = matchStrength(score);
    const entryId = list.entryIds[entry]!;
    if (strength) matches.push({ sourceId, entryId, matchedName, score, strength });
  }
  return matches;
}

/** One list parsed and indexed; `file` names it in errors. */
function readList(sourceId: string, file: string, bytes: Uint8Array): LoadedList {
  try {
    const { format, entries } = parseListFile(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'),
    );
    const info: ScreeningListInfo = {
      sourceId,
      format,
      entries: entries.length,
      sha256: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
      loadedAt: new Date().toISOString(),
    };
    const names = entries.flatMap(({ names: list }, entry) =>
      list.map((name) => ({ name, tokens: nameTokens(name), entry })),
    );
    const index = new NameIndex(names.map((n) => n.tokens));
    return { info, names, entryIds: entries.map((e) => e.entryId), index };
  } catch (error) {
    if (!(error instanceof ScreeningListFormatError || error instanceof CsvParseError)) throw error;
    throw new ScreeningListFormatError(`${file}: ${error.message}`);
  }
}
