import fs from 'node:fs';
import { certificatesFromPem } from '@verification-receipts/verify/internals';
import type { Timekeeping } from '../anchoring/anchor-service.js';
import type { TimestampStore } from '../anchoring/timestamps.js';
import type { Config } from '../config.js';
import {
  loadPdfCredentials,
  type PdfCredentials,
  type RevocationFinding,
  type RevocationSource,
  type SignatureTimestamper,
} from '../pdf/sign/index.js';
import { crlRevocationSource } from './crl-client.js';
import { CheckpointTimestamper, type TimestampOutcome } from './checkpoint-timestamper.js';
import type { TsaOptions } from './client.js';
import { signatureTimestamper } from './signature-timestamper.js';

export { CheckpointTimestamper, type TimestampOutcome } from './checkpoint-timestamper.js';
export { requestTimestamp, type TsaOptions } from './client.js';

/** The configured time-stamp authorities at work: after each seal, and for PDF signatures. */
export interface Timestamping {
  checkpoints: CheckpointTimestamper;
  signatures: SignatureTimestamper;
  /** TSA_CERT_FILES' certificates (DER): the ones the answers are checked against. */
  certificates: readonly Uint8Array[];
  /**
   * The CRLs of a B-LT DSS (PDF_LONG_TERM), fetched within TSA_TIMEOUT_MS each; every
   * certificate's outcome goes to the `onRevocation` listeners.
   */
  revocation: RevocationSource;
  onRevocation(listener: (finding: RevocationFinding) => void): void;
  /** Every attempt's outcome (metrics, logs); PDF ones have no tree size. */
  onOutcome(
    listener: (outcome: Omit<TimestampOutcome, 'treeSize'> & { treeSize?: number }) => void,
  ): void;
  close(): Promise<void>;
}

const MAX_CERT_FILE_BYTES = 256 * 1024;

/** TSA_CERT_FILES, read once at start: PEM certificates, several per file allowed. */
export function trustedTsaCertificates(files: readonly string[]): Uint8Array[] {
  return files.flatMap((file) => {
    if (fs.statSync(file).size > MAX_CERT_FILE_BYTES) {
      throw new Error(`TSA_CERT_FILES: ${file} is larger than ${MAX_CERT_FILE_BYTES} bytes`);
    }
    const certs = certificatesFromPem(fs.readFileSync(file, 'utf8'));
    if (certs.length === 0) throw new Error(`TSA_CERT_FILES: ${file} holds no CERTIFICATE`);
    return certs;
  });
}

/** The log's timekeeping (token store, seal listener) and the PDF credentials, from the config. */
export function timekeepingOf(config: Config, store: TimestampStore) {
  const trusted = config.tsa.urls.length > 0 ? trustedTsaCertificates(config.tsa.certFiles) : [];
  const tsas: TsaOptions[] = config.tsa.urls.map((url) => ({
    url,
    trusted,
    timeoutMs: config.tsa.timeoutMs,
  }));
  const timestamping =
    tsas.length > 0 ? createTimestamping(tsas, store, trusted, config.tsa.timeoutMs) : undefined;
  const timekeeping: Timekeeping = {
    store,
    ...(timestamping ? { onSealed: timestamping.checkpoints.onSealed } : {}),
  };
  const pdfCredentials = (): PdfCredentials =>
    loadPdfCredentials({ ...config.pdfSigning, dataDir: config.dataDir });
  return { timekeeping, timestamping, pdfCredentials };
}

function createTimestamping(
  tsas: TsaOptions[],
  store: TimestampStore,
  certificates: readonly Uint8Array[],
  timeoutMs: number,
): Timestamping {
  const checkpoints = new CheckpointTimestamper({ tsas, store });
  const revocationListeners: ((finding: RevocationFinding) => void)[] = [];
  const listeners: Parameters<Timestamping['onOutcome']>[0][] = [];
  checkpoints.onOutcome((outcome) => listeners.forEach((l) => l(outcome)));
  return {
    checkpoints,
    certificates,
    signatures: signatureTimestamper(tsas, (outcome) => listeners.forEach((l) => l(outcome))),
    onOutcome: (listener) => void listeners.push(listener),
    revocation: crlRevocationSource({ timeoutMs }, (finding) =>
      revocationListeners.forEach((l) => l(finding)),
    ),
    onRevocation: (listener) => void revocationListeners.push(listener),
    close: () => checkpoints.close(),
  };
}
