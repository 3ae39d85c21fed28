import { CA_EXT, TSA_EXT, type Issued, type TestPki } from '../helpers/test-pki.js';

/**
 * Certification paths for a TSA certificate, each made with the openssl CLI and each with one
 * thing that RFC 5280 path validation or RFC 3161 2.3 refuses (or nothing: the controls). `signer`
 * says who signs the token: `openssl ts -reply` where openssl agrees to sign with that
 * certificate, else the field-by-field token maker (openssl refuses to sign with a certificate
 * that lacks the critical timeStamping EKU, which is what those cases are about).
 */

export interface Chain {
  tsa: Issued;
  /** The certificates between the TSA's and the pinned one, nearest the TSA first. */
  intermediates: Issued[];
  pinned: Issued;
  signer: 'openssl' | 'fields';
}

export interface ChainCase {
  name: string;
  /** What `openssl verify -purpose timestampsign` decides, and so must the verifier. */
  accepted: boolean;
  /** The verifier's reason, naming the certificate at fault. */
  reason?: RegExp;
  /** openssl verify's error for a refused path (so that it refuses for that reason). */
  openssl?: string;
  make(pki: TestPki, shared: Shared): Chain;
}

export interface Shared {
  root: Issued;
  otherRoot: Issued;
  intermediate: Issued;
  tsa: Issued;
}

const DAY = 24 * 3600 * 1000;
const PAST = {
  notBefore: new Date('2020-01-01T00:00:00Z'),
  notAfter: new Date('2021-01-01T00:00:00Z'),
};

export function sharedChain(pki: TestPki): Shared {
  const root = pki.issue('root', 'Chain Root', { ext: CA_EXT });
  const intermediate = pki.issue('inter', 'Chain Intermediate', { issuer: root, ext: CA_EXT });
  return {
    root,
    otherRoot: pki.issue('other-root', 'Other Root', { ext: CA_EXT }),
    intermediate,
    tsa: pki.issue('tsa', 'Chain TSA', { issuer: intermediate, ext: TSA_EXT }),
  };
}

/** A TSA certificate under `issuer`, pinned at `root`, with one intermediate between. */
function under(pki: TestPki, id: string, issuer: Issued, root: Issued, ext = TSA_EXT): Chain {
  const tsa = pki.issue(`${id}-tsa`, `TSA ${id}`, { issuer, ext });
  const signer = ext === TSA_EXT ? 'openssl' : 'fields';
  return { tsa, intermediates: [issuer], pinned: root, signer };
}

/** An intermediate with `ext` (and validity) under the shared root, and a TSA under it. */
function intermediate(id: string, cn: string, ext: string[], dates = {}) {
  return (pki: TestPki, s: Shared): Chain =>
    under(pki, id, pki.issue(id, cn, { issuer: s.root, ext, ...dates }), s.root);
}

/** The shared intermediate's TSA with other extensions (a token openssl does not sign). */
function tsaWith(id: string, ext: string[]) {
  return (pki: TestPki, s: Shared): Chain => under(pki, id, s.intermediate, s.root, ext);
}

export const CHAIN_CASES: ChainCase[] = [
  {
    name: 'a valid chain through an intermediate',
    accepted: true,
    make: (_, s) => ({
      tsa: s.tsa,
      intermediates: [s.intermediate],
      pinned: s.root,
      signer: 'openssl',
    }),
  },
  {
    name: 'the same chain, the token made field by field',
    accepted: true,
    make: (_, s) => ({
      tsa: s.tsa,
      intermediates: [s.intermediate],
      pinned: s.root,
      signer: 'fields',
    }),
  },
  {
    name: 'an end-entity intermediate (CA:FALSE)',
    accepted: false,
    openssl: 'error 79 at 1 depth lookup: invalid CA certificate',
    reason:
      /the intermediate certificate "End Entity" is not a CA \(basicConstraints CA:FALSE\) yet issued the TSA certificate/,
    make: intermediate('ee', 'End Entity', [
      'basicConstraints = CA:FALSE',
      'keyUsage = critical,digitalSignature',
    ]),
  },
  {
    name: 'an intermediate without basicConstraints (keyCertSign alone)',
    accepted: false,
    openssl: 'error 79 at 1 depth lookup: invalid CA certificate',
    reason: /the intermediate certificate "No Constraints" is not a CA \(no basicConstraints\)/,
    make: intermediate('nobc', 'No Constraints', ['keyUsage = critical,keyCertSign']),
  },
  {
    name: 'an intermediate expired at genTime',
    accepted: false,
    openssl: 'error 10 at 1 depth lookup: certificate has expired',
    reason:
      /the intermediate certificate "Expired CA" is not valid at the stamped time .* to 2021-01-01T00:00:00.000Z/,
    make: intermediate('expired', 'Expired CA', CA_EXT, PAST),
  },
  {
    name: 'an intermediate not yet valid at genTime',
    accepted: false,
    openssl: 'error 9 at 1 depth lookup: certificate is not yet valid',
    reason: /the intermediate certificate "Future CA" is not valid at the stamped time/,
    make: intermediate('future', 'Future CA', CA_EXT, {
      notBefore: new Date(Date.now() + DAY),
      notAfter: new Date(Date.now() + 10 * DAY),
    }),
  },
  {
    name: 'an intermediate whose keyUsage lacks keyCertSign',
    accepted: false,
    openssl: 'error 32 at 1 depth lookup: key usage does not include certificate signing',
    reason:
      /the intermediate certificate "CRL Signer" may not sign certificates \(its keyUsage lacks keyCertSign\)/,
    make: intermediate('nokcs', 'CRL Signer', [
      'basicConstraints = critical,CA:TRUE',
      'keyUsage = critical,cRLSign,digitalSignature',
    ]),
  },
  {
    name: 'an intermediate with an unknown critical extension',
    accepted: false,
    openssl: 'error 34 at 1 depth lookup: unhandled critical extension',
    reason:
      /the intermediate certificate "Odd CA" has a critical extension this verifier does not process \(1\.3\.6\.1\.4\.1\.99999\.7\)/,
    make: intermediate('odd', 'Odd CA', [...CA_EXT, '1.3.6.1.4.1.99999.7 = critical,ASN1:NULL']),
  },
  {
    name: 'pathLenConstraint 0 with another intermediate below',
    accepted: false,
    openssl: 'error 25 at 2 depth lookup: path length constraint exceeded',
    reason:
      /the intermediate certificate "Length Zero" allows 0 intermediate certificate\(s\) below it \(pathLenConstraint\), the path has 1/,
    make: (pki, s) => {
      const zero = pki.issue('len0', 'Length Zero', {
        issuer: s.root,
        ext: [`${CA_EXT[0]},pathlen:0`, CA_EXT[1] ?? ''],
      });
      const below = pki.issue('len0-below', 'Below Zero', { issuer: zero, ext: CA_EXT });
      const tsa = pki.issue('len0-tsa', 'TSA len0', { issuer: below, ext: TSA_EXT });
      return { tsa, intermediates: [below, zero], pinned: s.root, signer: 'openssl' };
    },
  },
  {
    name: 'pathLenConstraint 0 with the TSA certificate right below (the TSA is not counted)',
    accepted: true,
    make: intermediate('len0-direct', 'Length Zero Direct', [
      `${CA_EXT[0]},pathlen:0`,
      CA_EXT[1] ?? '',
    ]),
  },
  {
    name: 'a TSA certificate whose timeStamping EKU is not critical',
    accepted: false,
    openssl: 'error 26 at 0 depth lookup: unsuitable certificate purpose',
    reason: /the TSA certificate "TSA eku-noncritical" has a non-critical extended key usage/,
    make: tsaWith('eku-noncritical', [
      'basicConstraints = CA:FALSE',
      'keyUsage = critical,digitalSignature',
      'extendedKeyUsage = timeStamping',
    ]),
  },
  {
    name: 'a TSA certificate without an extended key usage',
    accepted: false,
    openssl: 'error 26 at 0 depth lookup: unsuitable certificate purpose',
    reason: /the TSA certificate "TSA eku-none" has no extended key usage/,
    make: tsaWith('eku-none', [
      'basicConstraints = CA:FALSE',
      'keyUsage = critical,digitalSignature',
    ]),
  },
  {
    name: 'a TSA certificate for time-stamping and server authentication',
    accepted: false,
    openssl: 'error 26 at 0 depth lookup: unsuitable certificate purpose',
    reason: /the TSA certificate "TSA eku-two" is not for time-stamping alone/,
    make: tsaWith('eku-two', [
      'basicConstraints = CA:FALSE',
      'extendedKeyUsage = critical,timeStamping,serverAuth',
    ]),
  },
  {
    name: 'a TSA certificate whose keyUsage allows key encipherment',
    accepted: false,
    openssl: 'error 26 at 0 depth lookup: unsuitable certificate purpose',
    reason:
      /the TSA certificate "TSA ku-encipher" has a keyUsage other than digitalSignature or nonRepudiation/,
    make: tsaWith('ku-encipher', [
      'keyUsage = critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage = critical,timeStamping',
    ]),
  },
  {
    name: 'an intermediate of the right name but another key',
    accepted: false,
    openssl: 'error 20 at 0 depth lookup: unable to get local issuer certificate',
    reason: /the TSA's certificate is not pinned nor issued by a pinned certificate/,
    make: (pki, s) => {
      const impostor = pki.issue('impostor', 'Chain Intermediate', { issuer: s.root, ext: CA_EXT });
      return { tsa: s.tsa, intermediates: [impostor], pinned: s.root, signer: 'openssl' };
    },
  },
  {
    name: 'a valid chain under another pinned CA',
    accepted: false,
    openssl: 'error 20 at 1 depth lookup: unable to get local issuer certificate',
    reason: /the TSA's certificate is not pinned nor issued by a pinned certificate/,
    make: (_, s) => ({
      tsa: s.tsa,
      intermediates: [s.intermediate],
      pinned: s.otherRoot,
      signer: 'openssl',
    }),
  },
  {
    name: 'a pinned root expired at genTime',
    accepted: false,
    openssl: 'error 10 at 2 depth lookup: certificate has expired',
    reason: /the pinned certificate "Old Root" is not valid at the stamped time/,
    make: (pki) => {
      const old = pki.issue('old-root', 'Old Root', { ext: CA_EXT, ...PAST });
      return under(
        pki,
        'old',
        pki.issue('old-inter', 'Old Inter', { issuer: old, ext: CA_EXT }),
        old,
      );
    },
  },
];
