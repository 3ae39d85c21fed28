/** Sanctions/watch list screening: list loading, name normalisation and fuzzy matching. */
export { CsvParseError, parseCsv } from './csv.js';
export { ScreeningListFormatError, type ListEntry, type ListFormat } from './list-format.js';
export {
  matchStrength,
  ScreeningLists,
  STRONG_MATCH_THRESHOLD,
  UnknownScreeningSourceError,
  WEAK_MATCH_THRESHOLD,
  type MatchStrength,
  type ScreeningListInfo,
  type ScreeningMatch,
  type ScreenOptions,
} from './lists.js';
export { nameTokens, normaliseName } from './normalise.js';
export { nameSimilarity, TOKEN_MATCH_FLOOR } from './similarity.js';
