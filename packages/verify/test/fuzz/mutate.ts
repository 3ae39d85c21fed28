import fc from 'fast-check';

/**
 * Inputs for the fuzz targets: a real file (a seed) changed by a few mutations, the ways a hostile
 * file differs from a genuine one. Flips and overwrites break a field; truncation, deletion and
 * splicing move every offset after them; repetition and deep nesting grow what a parser keeps;
 * huge numbers and DER lengths promise more than the file holds; a PDF reference to one of the
 * file's first objects makes cycles (a node that holds itself or its parent). Positions and lengths are drawn
 * as plain numbers and taken modulo the input, so fast-check shrinks a failure towards small ones.
 */
export type Mutation =
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'set'; at: number; value: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'splice'; at: number; donor: number; from: number; length: number }
  | { kind: 'repeat'; at: number; length: number; times: number }
  | { kind: 'nest'; at: number; pair: readonly [string, string]; depth: number; closed: boolean }
  | { kind: 'huge'; at: number; value: string }
  | { kind: 'reference'; at: number; object: number };

/** What opens and closes nested values in the syntaxes the targets read: PDF, JSON, DER. */
const NESTING: ReadonlyArray<readonly [string, string]> = [
  ['[', ']'],
  ['<<', '>>'],
  ['<< /A ', '>>'],
  ['{"a":', '}'],
  ['[', '0]'],
  ['(', ')'],
  ['\x30\x80', '\x00\x00'],
  ['\x30\x84\x7f\xff\xff\xff', ''],
];
/** Numbers and lengths far past anything a file holds. */
const HUGE = [
  '4294967295',
  '99999999999999999999',
  '-1',
  '1e308',
  'NaN',
  '\x84\x7f\xff\xff\xff',
  '\x83\xff\xff\xff',
  '/Length 2147483647',
  '/N 100000000',
  '/Size 100000000',
];
/** The most bytes a mutated input may grow to, so that every run stays quick. */
const MAX_GROWTH = 64 * 1024;

const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);

const at = fc.nat();
export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at, bit: fc.nat(7) }),
  fc.record({ kind: fc.constant('set' as const), at, value: fc.nat(255) }),
  fc.record({ kind: fc.constant('truncate' as const), at }),
  fc.record({ kind: fc.constant('delete' as const), at, length: fc.nat(4096) }),
  fc.record({
    kind: fc.constant('splice' as const),
    at,
    donor: fc.nat(),
    from: fc.nat(),
    length: fc.nat(4096),
  }),
  fc.record({
    kind: fc.constant('repeat' as const),
    at,
    length: fc.integer({ min: 1, max: 64 }),
    times: fc.integer({ min: 2, max: 4096 }),
  }),
  {
    // deep nesting is what recursive readers die of: drawn three times as often
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('nest' as const),
      at,
      pair: fc.constantFrom(...NESTING),
      depth: fc.integer({ min: 1, max: 30_000 }),
      closed: fc.boolean(),
    }),
  },
  fc.record({ kind: fc.constant('huge' as const), at, value: fc.constantFrom(...HUGE) }),
  fc.record({
    kind: fc.constant('reference' as const),
    at,
    object: fc.integer({ min: 1, max: 40 }),
  }),
);

function insert(input: Uint8Array, offset: number, part: Uint8Array, remove = 0): Uint8Array {
  const out = new Uint8Array(input.length - remove + part.length);
  out.set(input.subarray(0, offset), 0);
  out.set(part, offset);
  out.set(input.subarray(offset + remove), offset + part.length);
  return out;
}

/** `input` after one mutation; `donors` are the other seeds, spliced from. */
export function applyMutation(
  input: Uint8Array,
  m: Mutation,
  donors: readonly Uint8Array[],
): Uint8Array {
  const offset = input.length === 0 ? 0 : m.at % (input.length + 1);
  const within = Math.min(offset, Math.max(0, input.length - 1));
  switch (m.kind) {
    case 'flip':
    case 'set': {
      if (input.length === 0) return input;
      const out = Uint8Array.from(input);
      out[within] = m.kind === 'flip' ? (out[within] ?? 0) ^ (1 << m.bit) : m.value;
      return out;
    }
    case 'truncate':
      return input.subarray(0, offset);
    case 'delete':
      return insert(input, offset, new Uint8Array(0), Math.min(m.length, input.length - offset));
    case 'splice': {
      const donor = donors.length > 0 ? (donors[m.donor % donors.length] as Uint8Array) : input;
      const from = donor.length === 0 ? 0 : m.from % donor.length;
      return insert(input, offset, donor.subarray(from, from + m.length));
    }
    case 'repeat': {
      const piece = input.subarray(offset, offset + m.length);
      const times = Math.min(m.times, Math.floor(MAX_GROWTH / Math.max(1, piece.length)));
      const out = new Uint8Array(piece.length * times);
      for (let i = 0; i < times; i += 1) out.set(piece, i * piece.length);
      return insert(input, offset, out);
    }
    case 'nest': {
      const [open, close] = m.pair;
      const depth = Math.min(m.depth, Math.floor(MAX_GROWTH / (open.length + close.length)));
      const text = open.repeat(depth) + (m.closed ? close.repeat(depth) : '');
      return insert(input, offset, latin1(text));
    }
    case 'reference':
      return insert(input, offset, latin1(` ${m.object} 0 R `));
    case 'huge':
      return insert(
        input,
        offset,
        latin1(m.value),
        Math.min(m.value.length, input.length - offset),
      );
  }
}

/** A seed and one to four mutations of it, applied in order. */
export function mutated(seeds: readonly Uint8Array[]): fc.Arbitrary<Uint8Array> {
  if (seeds.length === 0) throw new Error('a fuzz target needs at least one seed');
  return fc
    .tuple(fc.nat(seeds.length - 1), fc.array(mutation, { minLength: 1, maxLength: 4 }))
    .map(([index, mutations]) =>
      mutations.reduce((bytes, m) => applyMutation(bytes, m, seeds), seeds[index] as Uint8Array),
    );
}
