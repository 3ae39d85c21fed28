import { parseCsv } from './csv.js';
import { ServiceError } from '../errors.js';

/**
 * The list file layouts the loader reads, detected from the file's first record:
 *
 * - `opensanctions`: OpenSanctions `targets.simple.csv`, a header row naming the columns
 *   (id, schema, name, aliases, birth_date, ...); `aliases` is `;`-separated. Recognised by
 *   header cells `id` and `name`; columns are found by name.
 * - `ofac-sdn`: OFAC SDN `sdn.csv`, no header, 12 columns (ent_num, SDN_Name, SDN_Type, Program,
 *   Title, Call_Sign, Vess_type, Tonnage, GRT, Vess_flag, Vess_owner, Remarks); `-0-` = empty.
 * - `ofac-alt`: OFAC `alt.csv` (aliases of SDN entries), no header, 5 columns (ent_num, alt_num,
 *   alt_type, alt_name, alt_remarks); rows of one ent_num form one entry.
 */
export type ListFormat = 'opensanctions' | 'ofac-sdn' | 'ofac-alt';

/** One listed party: its id in the source list and every name it is listed under. */
export interface ListEntry {
  entryId: string;
  names: string[];
}

export class ScreeningListFormatError extends ServiceError<'screening_list_unreadable'> {
  override name = 'ScreeningListFormatError';
  constructor(message: string) {
    super('screening_list_unreadable', message);
  }
}

const OFAC_EMPTY = '-0-';
const OFAC_SDN_COLUMNS = 12;
const OFAC_ALT_COLUMNS = 5;
const INTEGER = /^\d+$/;
const ALIAS_SEPARATOR = ';';

/** Parse a list file's text; throws ScreeningListFormatError when no layout fits. */
export function parseListFile(text: string): { format: ListFormat; entries: ListEntry[] } {
  const records = parseCsv(text);
  const first = records[0];
  if (first === undefined) throw new ScreeningListFormatError('list file has no records');
  const header = first.map((cell) => cell.trim());
  if (header.includes('id') && header.includes('name')) {
    return { format: 'opensanctions', entries: openSanctionsEntries(header, records.slice(1)) };
  }
  if (first.length === OFAC_SDN_COLUMNS && INTEGER.test(ofacField(first[0]))) {
    return { format: 'ofac-sdn', entries: ofacSdnEntries(records) };
  }
  if (first.length === OFAC_ALT_COLUMNS && INTEGER.test(ofacField(first[0]))) {
    return { format: 'ofac-alt', entries: ofacAltEntries(records) };
  }
  throw new ScreeningListFormatError(
    'unrecognised layout: expected OpenSanctions targets.simple.csv, OFAC sdn.csv or OFAC alt.csv',
  );
}

function openSanctionsEntries(header: string[], rows: string[][]): ListEntry[] {
  const column = (name: string) => header.indexOf(name);
  const [id, name, aliases] = [column('id'), column('name'), column('aliases')];
  return rows.map((row, index) => {
    requireWidth(row, header.length, index + 2);
    const aliasList = aliases < 0 ? [] : (row[aliases] ?? '').split(ALIAS_SEPARATOR);
    return { entryId: (row[id] ?? '').trim(), names: presentNames([row[name], ...aliasList]) };
  });
}

function ofacSdnEntries(rows: string[][]): ListEntry[] {
  return rows.map((row, index) => {
    requireWidth(row, OFAC_SDN_COLUMNS, index + 1);
    return { entryId: ofacField(row[0]), names: presentNames([ofacField(row[1])]) };
  });
}

function ofacAltEntries(rows: string[][]): ListEntry[] {
  const byEntry = new Map<string, string[]>();
  rows.forEach((row, index) => {
    requireWidth(row, OFAC_ALT_COLUMNS, index + 1);
    const entryId = ofacField(row[0]);
    byEntry.set(entryId, [...(byEntry.get(entryId) ?? []), ofacField(row[3])]);
  });
  return [...byEntry].map(([entryId, names]) => ({ entryId, names: presentNames(names) }));
}

/** OFAC fields are space-padded and use `-0-` for "no value". */
function ofacField(value: string | undefined): string {
  const trimmed = (value ?? '').trim();
  return trimmed === OFAC_EMPTY ? '' : trimmed;
}

function presentNames(names: ReadonlyArray<string | undefined>): string[] {
  return names.map((n) => (n ?? '').trim()).filter((n) => n !== '');
}

function requireWidth(row: string[], width: number, recordNumber: number): void {
  if (row.length !== width) {
    throw new ScreeningListFormatError(
      `record ${recordNumber} has ${row.length} fields, expected ${width}`,
    );
  }
}
