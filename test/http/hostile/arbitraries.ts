import fc from 'fast-check';
import { ENDPOINTS, KEYED_ENDPOINTS } from './requests.js';

/** fast-check arbitraries for hostile requests. */

export const endpoint = fc.constantFrom(...ENDPOINTS);
export const keyedEndpoint = fc.constantFrom(...KEYED_ENDPOINTS);

/** Header values the HTTP layer can carry: visible ASCII, space, tab and Latin-1 (obs-text). */
const headerChar = fc
  .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }))
  .map((c) => String.fromCharCode(c));
export const headerValue = (maxLength = 120) => fc.string({ unit: headerChar, maxLength });

/** Any JSON text, including strings with NUL and lone surrogates, and non-JSON text. */
export const anyBodyText = fc.oneof(
  fc.json({ stringUnit: 'binary', maxDepth: 4 }),
  fc.anything({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null'),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

/** Everything the fields of a request could wrongly be. */
export const anyValue = fc.oneof(
  fc.jsonValue({ stringUnit: 'binary', maxDepth: 3 }),
  // { toString: [] } once broke a failure message (String() of it throws): kept among the fixed values
  fc.constantFrom(null, true, false, 0, -1, 1e308, '', ' ', [], {}, undefined, { toString: [] }),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
);

/** Characters that break naive string handling (NUL, lone surrogates, BOM, quotes...). */
export const nastyChar = fc.constantFrom(
  '\u0000',
  '\ud800',
  '\udfff',
  '\udc00\ud800',
  '\u202e',
  '\ufeff',
  '\uffff',
  '\u{10ffff}',
  '\\',
  '"',
  "'; drop table receipts; --",
  '\r\n',
  '%00',
  '${jndi:ldap://x}',
);

/** Not quite base64 (url-safe alphabet, stray padding and characters, a data: URL...). */
export const badBase64 = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.base64String({ minLength: 4 }).map((s) => `${s}=`),
  fc.base64String({ minLength: 4 }).map((s) => s.replaceAll('+', '-').replaceAll('/', '_')),
  fc
    .tuple(fc.base64String({ minLength: 8 }), fc.nat(), fc.constantFrom(' ', '\n', '.', '%', '=='))
    .map(([s, at, c]) => s.slice(0, at % s.length) + c + s.slice(at % s.length)),
  fc.base64String({ minLength: 4 }).map((s) => `data:application/pdf;base64,${s}`),
  fc.constantFrom('=', '==', 'A', 'AB=', 'A===', '====', '\u0000', 'QQ==QQ=='),
);

export const nestingShape = fc.constantFrom('array', 'object', 'in-field', 'proto', 'unclosed');

/** JSON text nested `depth` levels deep in the given shape (see `nestingShape`). */
export function nest(kind: string, depth: number): string {
  switch (kind) {
    case 'array':
      return '['.repeat(depth) + ']'.repeat(depth);
    case 'object':
      return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    case 'in-field':
      return `{"bundleId":${'[{"x":'.repeat(depth)}0${'}]'.repeat(depth)}}`;
    case 'proto':
      return '{"a":'.repeat(depth) + '{"__proto__":{"polluted":1}}' + '}'.repeat(depth);
    default:
      return '['.repeat(depth);
  }
}

const validUuid = '1b4e28ba-2fa1-41d2-883f-0016d3cca427';

/** Receipt ids for the path: URL-encoded strings, near-uuids, bad escapes. */
export const badReceiptId = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 60 }).map(encodeURIComponent),
  fc.string({ unit: 'binary-ascii', maxLength: 60 }).map(encodeURIComponent),
  fc.uuid(),
  fc.uuid().map((u) => u.toUpperCase()),
  fc
    .tuple(fc.nat(35), fc.constantFrom('g', 'Z', '-', '', '00', '%00', '%20', '\u00e9'))
    .map(([at, c]) => encodeURI(validUuid.slice(0, at) + c + validUuid.slice(at + 1))),
  fc.constantFrom(
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    '%',
    '%E0%A4%A',
    '%zz',
    '%00',
    '..%2F..%2Fetc%2Fpasswd',
    `${validUuid}%00`,
    `{${validUuid}}`,
    'a'.repeat(500),
  ),
);

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v) ?? 'null').toString('base64url');

/** List cursors: garbage, and base64url JSON of the right shape with wrong contents. */
const cursor = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }).map(encodeURIComponent),
  fc.anything({ maxDepth: 2 }).map(b64),
  fc.tuple(fc.string(), fc.string()).map(b64),
  fc
    .tuple(
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.uuid(),
    )
    .map(b64),
  fc
    .tuple(
      fc.string({ unit: fc.constantFrom(...'0123456789-TZ:.'), minLength: 1, maxLength: 30 }),
      fc.string({
        unit: fc.constantFrom(...'0123456789abcdef-'),
        minLength: 36,
        maxLength: 36,
      }),
    )
    .map(b64),
);

/** One `name=value` query parameter of GET /receipts, as a pair. */
export const listQueryParam = fc.oneof(
  fc.tuple(
    fc.constantFrom('limit', 'limit[]', 'cursor', 'cursor[0]'),
    fc.oneof(cursor, fc.string()),
  ),
  fc.tuple(fc.constant('limit'), fc.oneof(fc.integer().map(String), fc.double().map(String))),
  fc.tuple(fc.constant('cursor'), cursor),
  fc.tuple(
    fc.string({ unit: 'grapheme', maxLength: 10 }).map(encodeURIComponent),
    fc.string({ unit: 'grapheme', maxLength: 10 }).map(encodeURIComponent),
  ),
  fc.tuple(
    fc.constantFrom('%', '%zz', '&', '=', '[]', '__proto__', 'constructor'),
    fc.constantFrom('', '%', '%E0%A4%A', '==', '&&'),
  ),
);

/** Tree sizes for from/to of GET /log/consistency. */
export const logSize = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 20 }).map(encodeURIComponent),
  fc.integer().map(String),
  fc.bigInt().map(String),
  fc.double().map(String),
  fc.constantFrom(
    '1',
    '1e400',
    '0x10',
    '-0',
    '1.5',
    'Infinity',
    'NaN',
    '',
    ' 1 ',
    '9007199254740993',
    '9223372036854775808',
    '1&from=2',
    '%',
  ),
);

/** x-api-key values that are not `key`: random, well-formed but unknown, near misses. */
export const badApiKey = (key: string) =>
  fc.oneof(
    headerValue(),
    fc
      .string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 })
      .chain((id) =>
        fc
          .base64String({ minLength: 40, maxLength: 44 })
          .map((s) => `vrs_${id}_${s.replace(/=+$/, '')}`),
      ),
    fc.constant(key.slice(0, -1)),
    fc.constant(`${key} `),
    fc.constant(key.toUpperCase()),
  );

/** Content types: random header values and near-JSON ones. */
export const contentType = fc.oneof(
  headerValue(60),
  fc.constantFrom(
    'application/json; charset=utf-16',
    'application/json; charset=latin1',
    'application/json;;;',
    'application/json; boundary=',
    'APPLICATION/JSON',
    'application/jsonx',
    'application/json-patch+json',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'text/json',
    '*/*',
    ';',
    '',
  ),
);
