import { children, oidOf, readWhole, sequence, TAG } from './der.js';

/**
 * An X.501 Name (RFC 5280 4.1.2.4) as text a report can show: `CN=Jane Q Public, serialNumber=
 * TX-1234567, O=Example RON, C=US`, most specific first as RFC 4514 writes it. Attribute types
 * without a short name appear as their OID; values are decoded (UTF-8, Printable, IA5, BMP) and
 * characters outside printable ASCII and Latin-1 letters are replaced, so the text is safe to show.
 */

const SHORT_NAMES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.4': 'SN',
  '2.5.4.5': 'serialNumber',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.12': 'title',
  '2.5.4.42': 'GN',
  '2.5.4.97': 'organizationIdentifier',
  '1.2.840.113549.1.9.1': 'emailAddress',
};

/** Attributes shown from one Name (a real one has under ten). */
const MAX_ATTRIBUTES = 32;

export interface NameAttribute {
  /** Short name (CN, O, serialNumber, ...) or the dotted OID. */
  type: string;
  value: string;
}

/** The attributes of a DER Name, in its order (least specific first). */
export function nameAttributes(der: Uint8Array): NameAttribute[] {
  const out: NameAttribute[] = [];
  for (const rdn of children(readWhole(der), MAX_ATTRIBUTES)) {
    for (const attribute of sequence(rdn, 'rdn', TAG.set)) {
      const [oid, value] = sequence(attribute, 'attribute');
      const type = oidOf(oid);
      if (value && out.length < MAX_ATTRIBUTES) {
        out.push({ type: SHORT_NAMES[type] ?? type, value: decodeValue(value.tag, value.value) });
      }
    }
  }
  return out;
}

/** RFC 4514 order: the most specific attribute first. */
export function nameText(der: Uint8Array): string {
  return nameAttributes(der)
    .reverse()
    .map((a) => `${a.type}=${a.value}`)
    .join(', ');
}

function decodeValue(tag: number, bytes: Uint8Array): string {
  let text: string;
  if (tag === 0x1e) {
    // BMPString: UTF-16BE
    text = '';
    for (let i = 0; i + 1 < bytes.length; i += 2) {
      text += String.fromCharCode(((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0));
    }
  } else {
    text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  }
  return text.replace(/[^\x20-\x7e\u00a0-\u024f]/g, '?').slice(0, 200);
}
