import { leafHash } from '../anchoring/merkle.js';
import { revocationMessage, signatureValid } from './revocation.js';

/**
 * What the log holds (docs/log.md "Entries"). Two formats, told apart by their bytes:
 *
 * - receipt entry v1 (`rfc9162-sha256-v1`): the 32 raw bytes of the receipt hash;
 * - revocation entry v1 (`revocation-v1`): UTF-8 text, one `name value` line each, LF-ended:
 *
 *       verification-receipt-revocation/v1
 *       receipt-hash sha256:<hex>
 *       receipt-id <uuid>
 *       issuer <issuer id>
 *       issuer-key <base64url raw Ed25519 public key>
 *       timestamp <x-signature-timestamp, as signed>
 *       signature <base64url Ed25519 signature over `revoke\n<receipt-id>\n<issuer>\n<timestamp>`>
 *
 * A revocation entry carries everything needed to check the revoker's signature offline (its
 * lines keep the specification's name for the revoker, `issuer`).
 */

export const RECEIPT_ENTRY_VERSION = 'rfc9162-sha256-v1';
export const REVOCATION_ENTRY_VERSION = 'revocation-v1';
const REVOCATION_TYPE = 'verification-receipt-revocation/v1';
const FIELDS = ['receipt-hash', 'receipt-id', 'issuer', 'issuer-key', 'timestamp', 'signature'];

export interface LogEntry {
  entry: Buffer;
  leafHash: Buffer;
}

export interface RevocationStatement {
  receiptHash: string;
  receiptId: string;
  issuerId: string;
  /** Raw 32-byte Ed25519 public key, base64url. */
  issuerKey: string;
  timestamp: string;
  signature: string;
}

const entryOf = (entry: Buffer): LogEntry => ({ entry, leafHash: Buffer.from(leafHash(entry)) });

/** A receipt's entry: the 32 bytes of its `sha256:` hash. */
export function receiptEntry(receiptHash: string): LogEntry {
  return entryOf(Buffer.from(receiptHash.replace(/^sha256:/, ''), 'hex'));
}

export function revocationEntry(statement: RevocationStatement): LogEntry {
  const s = statement;
  const values = [s.receiptHash, s.receiptId, s.issuerId, s.issuerKey, s.timestamp, s.signature];
  const lines = FIELDS.map((name, i) => `${name} ${values[i] ?? ''}`);
  return entryOf(Buffer.from(`${[REVOCATION_TYPE, ...lines].join('\n')}\n`, 'utf8'));
}

/** The statement of a revocation entry, or undefined when the bytes are not one. */
export function parseRevocationEntry(entry: Uint8Array): RevocationStatement | undefined {
  const text = Buffer.from(entry).toString('utf8');
  const lines = text.split('\n');
  if (lines.length !== FIELDS.length + 2 || lines[0] !== REVOCATION_TYPE || lines.at(-1) !== '') {
    return undefined;
  }
  const values = FIELDS.map((name, i) => {
    const line = lines[i + 1] as string;
    return line.startsWith(`${name} `) ? line.slice(name.length + 1) : undefined;
  });
  if (values.some((v) => v === undefined)) return undefined;
  const [receiptHash, receiptId, issuerId, issuerKey, timestamp, signature] = values as string[];
  return {
    receiptHash: receiptHash as string,
    receiptId: receiptId as string,
    issuerId: issuerId as string,
    issuerKey: issuerKey as string,
    timestamp: timestamp as string,
    signature: signature as string,
  };
}

/**
 * The revocation a log entry proves for this receipt: it must parse, name this receipt (id and
 * hash) and carry a valid signature by the revoker. Undefined otherwise.
 */
export function provenRevocation(
  entry: Uint8Array,
  receipt: { receiptId: string; receiptHash: string },
): RevocationStatement | undefined {
  const statement = parseRevocationEntry(entry);
  if (!statement) return undefined;
  if (statement.receiptId !== receipt.receiptId || statement.receiptHash !== receipt.receiptHash) {
    return undefined;
  }
  const message = revocationMessage(statement.receiptId, statement.issuerId, statement.timestamp);
  return signatureValid(statement.issuerKey, message, statement.signature) ? statement : undefined;
}
