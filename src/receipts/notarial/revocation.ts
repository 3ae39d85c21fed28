import type { Certificate } from '@verification-receipts/verify/internals';
import type { CertificateStatus } from '../certificate-revocation.js';

/**
 * Whether a signer's certificates were revoked, for `doc.signatures`. A notary whose key was
 * stolen has the CA revoke the certificate; the thief's signatures still verify and still chain
 * to the anchors, so only the issuer's revocation list tells them apart. The lookup is a port
 * (../certificate-revocation.ts; the service fetches the CRLs a certificate names, src/timestamping/crl-client.ts);
 * the rule that decides what a revocation means for a signature is here.
 */

/** When the signature was made, and whether a trusted time-stamp proves it. */
export interface SigningTime {
  at: Date;
  source: string;
  /** A signature time-stamp token of an authority the tenant trusts dates it. */
  proven: boolean;
}

export interface RevocationJudgement {
  /** The signature cannot stand: a certificate of its path is revoked. */
  revoked?: string;
  /** Revocation could not be established for a certificate that publishes a CRL. */
  unknown?: string;
  /** What was found, for the details. */
  summary: string;
}

/**
 * A revoked certificate sinks the signature unless a trusted time-stamp proves the signature
 * existed before the revocation: a claimed time (signingTime, /M) is the signer's word, and the
 * holder of a stolen key writes whatever time suits.
 */
export function judgeRevocation(
  path: readonly Certificate[],
  statuses: readonly CertificateStatus[],
  time: SigningTime,
): RevocationJudgement {
  const phrases: string[] = [];
  const unknown: string[] = [];
  let revoked: string | undefined;
  statuses.forEach((status, i) => {
    const name = certificateName(path[i], i);
    if (status.state === 'unpublished') phrases.push(`${name} names no CRL`);
    else if (status.state === 'good') phrases.push(`${name} not revoked (${status.source})`);
    else if (status.state === 'unknown') {
      unknown.push(`${name}: ${status.reason}`);
      phrases.push(`${name} revocation unknown`);
    } else {
      const when = status.revokedAt.toISOString();
      if (time.proven && time.at < status.revokedAt) {
        phrases.push(`${name} revoked ${when}, after the time-stamped signing time`);
      } else {
        const why = time.proven
          ? `at or before the time-stamped signing time ${time.at.toISOString()}`
          : 'and no trusted time-stamp proves the signature was made before that (the signing time is only claimed)';
        revoked ??= `${name} was revoked ${when} (${status.source}), ${why}`;
        phrases.push(`${name} revoked ${when}`);
      }
    }
  });
  // no status: the signer's certificate is itself one of the tenant's anchors
  const found = phrases.length > 0 ? phrases.join(', ') : "the signer's certificate is an anchor";
  const summary = `revocation: ${found}`;
  return {
    summary,
    ...(revoked ? { revoked } : {}),
    ...(unknown.length > 0 ? { unknown: unknown.join('; ') } : {}),
  };
}

function certificateName(cert: Certificate | undefined, index: number): string {
  const role = index === 0 ? "the signer's certificate" : `CA certificate ${index}`;
  return cert?.commonName ? `${role} "${cert.commonName.slice(0, 80)}"` : role;
}
