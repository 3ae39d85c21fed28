/**
 * Text for people, not parsers: a sentence that starts with a capital letter wherever details
 * from the verifier (written to follow a colon) are joined after a full stop, and a receipt's
 * structured facts (a property with its parcel, county and state) as words rather than JSON.
 */

/** The text with its first letter upper-case, so it can follow a full stop. */
export function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The order a reader expects a place in, most specific first; the receipt's canonical form sorts
 * its keys, which would put the state before the parcel.
 */
const PLACE_ORDER = ['parcelId', 'address', 'street', 'city', 'county', 'state', 'zip'];
const rank = (key: string): number => {
  const i = PLACE_ORDER.indexOf(key);
  return i < 0 ? PLACE_ORDER.length : i;
};

/** `parcelId` as "parcel ID": a key in words. */
export function keyWords(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase()
    .replace(/\bid\b/g, 'ID');
}

/** Any value as readable text: objects as "key: value" pairs, lists joined, never raw JSON. */
export function readable(value: unknown, depth = 0): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return String(value);
  // a receipt is bounded, but a hostile one may nest deeply: the page stays readable
  if (depth >= 4) return '…';
  if (Array.isArray(value))
    return value
      .map((v) => readable(v, depth + 1))
      .filter(Boolean)
      .join(', ');
  const pairs = Object.entries(value as Record<string, unknown>)
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([k, v]) => [k, readable(v, depth + 1)] as const)
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${keyWords(k)}: ${v}`);
  return depth > 0 ? `(${pairs.join(', ')})` : pairs.join(', ');
}
