import type { Step } from './steps.js';

/**
 * How long a verified receipt's evidence holds: the earliest date among what the verification
 * relied on (a certificate's notAfter, a key's stated validity, an algorithm's published end) and
 * which algorithms it relied on, each with its horizon. A receipt meant to be relied on for
 * decades stays checkable only while all of these hold; renewing the PDF's archive time-stamp or
 * adding a post-quantum signature moves the date. Pure: the caller gathers the facts.
 */

/** An algorithm's documented horizon: why it ends, and the date a standard sets, if one does. */
export interface AlgorithmHorizon {
  horizon: string;
  until?: string;
}

const QUANTUM =
  'until a cryptographically relevant quantum computer; NIST IR 8547 (draft) disallows it after 2035';

/**
 * Per algorithm: Ed25519, ECDSA and RSA fall to a quantum computer running Shor's algorithm, and
 * NIST IR 8547 (initial public draft, 2024) disallows them for signatures after 2035 (112-bit
 * RSA keys are deprecated from 2031). ML-DSA-44 (FIPS 204, security category 2) has no end date.
 */
export const ALGORITHM_HORIZONS: Readonly<Record<string, AlgorithmHorizon>> = {
  Ed25519: { horizon: QUANTUM, until: '2035-12-31T23:59:59.000Z' },
  'ECDSA P-256': { horizon: QUANTUM, until: '2035-12-31T23:59:59.000Z' },
  'ECDSA P-384': { horizon: QUANTUM, until: '2035-12-31T23:59:59.000Z' },
  RSA: {
    horizon: `${QUANTUM} (keys under 3072 bits are deprecated from 2031)`,
    until: '2035-12-31T23:59:59.000Z',
  },
  'ML-DSA-44': {
    horizon: 'no end date set: NIST FIPS 204, security category 2, resists quantum computers',
  },
};

const UNKNOWN: AlgorithmHorizon = { horizon: 'no documented horizon: not a known algorithm' };

/** A dated limit of something the verification relied on. */
export interface Expiry {
  what: string;
  until: Date;
}

export interface HorizonFacts {
  steps: readonly Step[];
  /** The PDF signing certificate, when the PDF signature was checked. */
  pdfSigner?: { notAfter: Date; algorithm: string };
  /** The certificates of the time-stamp authorities whose tokens were checked. */
  timestampAuthorities?: readonly { name: string; notAfter: Date; algorithm: string }[];
  /** Algorithms of the witnesses whose cosignatures count toward the pinned quorum. */
  witnessAlgorithms?: readonly string[];
  /** The issuing key's end of validity, when the key set states one. */
  keyValidUntil?: Date;
}

export interface ReliedAlgorithm {
  name: string;
  usedFor: string[];
  horizon: string;
  until?: string;
}

export interface EvidenceHorizon {
  /** The earliest dated limit, ISO 8601; null when nothing relied on has a date. */
  until: string | null;
  /** What sets `until`. */
  limitedBy: string | null;
  algorithms: ReliedAlgorithm[];
  expiries: { what: string; until: string }[];
}

const passed = (steps: readonly Step[], id: Step['id']): boolean =>
  steps.some((s) => s.id === id && s.status === 'PASS');

/** The algorithms each passed step relied on. */
function algorithmUses(facts: HorizonFacts): [string, string][] {
  const { steps } = facts;
  const uses: [string, string][] = [];
  if (passed(steps, 'signature')) uses.push(['Ed25519', 'receipt signature']);
  if (passed(steps, 'pq-signature')) uses.push(['ML-DSA-44', 'receipt signature']);
  if (passed(steps, 'checkpoint')) uses.push(['Ed25519', 'log checkpoint']);
  if (passed(steps, 'witnesses'))
    for (const a of facts.witnessAlgorithms ?? []) uses.push([a, 'witness cosignatures']);
  if (passed(steps, 'pdf-signature') && facts.pdfSigner)
    uses.push([facts.pdfSigner.algorithm, 'PDF signature']);
  if (passed(steps, 'timestamps'))
    for (const t of facts.timestampAuthorities ?? []) uses.push([t.algorithm, 'time-stamps']);
  return uses;
}

function expiriesOf(facts: HorizonFacts): Expiry[] {
  const { steps } = facts;
  const out: Expiry[] = [];
  if (passed(steps, 'pdf-signature') && facts.pdfSigner)
    out.push({ what: 'the PDF signing certificate', until: facts.pdfSigner.notAfter });
  if (passed(steps, 'timestamps'))
    for (const t of facts.timestampAuthorities ?? [])
      out.push({ what: `the time-stamp authority certificate (${t.name})`, until: t.notAfter });
  if (facts.keyValidUntil && passed(steps, 'signature'))
    out.push({ what: 'the issuing key', until: facts.keyValidUntil });
  return out;
}

export function evidenceHorizon(facts: HorizonFacts): EvidenceHorizon {
  const byName = new Map<string, ReliedAlgorithm>();
  for (const [name, use] of algorithmUses(facts)) {
    const known = byName.get(name);
    if (known) {
      if (!known.usedFor.includes(use)) known.usedFor.push(use);
      continue;
    }
    const h = ALGORITHM_HORIZONS[name] ?? UNKNOWN;
    byName.set(name, {
      name,
      usedFor: [use],
      horizon: h.horizon,
      ...(h.until ? { until: h.until } : {}),
    });
  }
  const algorithms = [...byName.values()];
  const dated: Expiry[] = [
    ...expiriesOf(facts),
    ...algorithms.flatMap((a) =>
      a.until ? [{ what: `the algorithm ${a.name}`, until: new Date(a.until) }] : [],
    ),
  ];
  const earliest = dated.reduce<Expiry | undefined>(
    (min, e) => (!min || e.until < min.until ? e : min),
    undefined,
  );
  return {
    until: earliest ? earliest.until.toISOString() : null,
    limitedBy: earliest ? earliest.what : null,
    algorithms,
    expiries: dated.map((e) => ({ what: e.what, until: e.until.toISOString() })),
  };
}

/** The horizon in one sentence for a person. */
export function horizonSentence(h: EvidenceHorizon): string {
  const names = h.algorithms.map((a) => a.name).join(', ') || 'no algorithm';
  const vulnerable = h.algorithms.filter((a) => a.until !== undefined).map((a) => a.name);
  const sooner =
    vulnerable.length > 0
      ? `, or sooner if a quantum computer breaks ${vulnerable.join(', ')}`
      : '';
  if (h.until === null) return `The evidence states no end date; it relies on ${names}.`;
  return `The evidence holds until ${h.until.slice(0, 10)}, the end of ${h.limitedBy ?? ''}${sooner}; it relies on ${names}.`;
}
