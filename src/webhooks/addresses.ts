import { isIP } from 'node:net';

/**
 * Which addresses a webhook may be sent to. Private, loopback, link-local, unique-local, CGNAT,
 * multicast, documentation and reserved ranges are refused, in IPv4 and IPv6, and so is an
 * IPv6 address that carries an IPv4 address (IPv4-mapped, NAT64, 6to4) whose IPv4 address is
 * refused, and every IPv6 address outside global unicast (2000::/3) that carries no public IPv4
 * address (IPv4-compatible and IPv4-translated forms among them); unless an operator's CIDR
 * allows it (WEBHOOK_ALLOWED_NETWORKS).
 */

interface Range {
  bytes: Uint8Array;
  prefix: number;
  name: string;
}

function ipv4Bytes(address: string): Uint8Array {
  return Uint8Array.from(address.split('.').map((p) => Number(p)));
}

/** The 16 bytes of an IPv6 address (`::` and a dotted IPv4 tail allowed; no zone id). */
function ipv6Bytes(address: string): Uint8Array {
  let text = address;
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    const v4 = ipv4Bytes(text.slice(lastColon + 1));
    const hex = (a: number, b: number) => ((a << 8) | b).toString(16);
    text = `${text.slice(0, lastColon + 1)}${hex(v4[0]!, v4[1]!)}:${hex(v4[2]!, v4[3]!)}`;
  }
  const [head = '', rest] = text.split('::');
  const words = (s: string) => (s === '' ? [] : s.split(':').map((w) => parseInt(w, 16)));
  const left = words(head);
  const right = rest === undefined ? [] : words(rest);
  const zeros = 8 - left.length - right.length;
  const full = [...left, ...new Array<number>(Math.max(0, zeros)).fill(0), ...right];
  const out = new Uint8Array(16);
  full.slice(0, 8).forEach((w, i) => {
    out[i * 2] = w >> 8;
    out[i * 2 + 1] = w & 0xff;
  });
  return out;
}

function inRange(bytes: Uint8Array, range: Range): boolean {
  if (bytes.length !== range.bytes.length) return false;
  let bits = range.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i]! & mask) !== (range.bytes[i]! & mask)) return false;
  }
  return true;
}

/** A CIDR (`10.0.0.0/8`, `fd00::/8`, or a bare address) as a range; throws when malformed. */
export function parseCidr(cidr: string, name = cidr): Range {
  const [address = '', prefixText] = cidr.trim().split('/');
  const family = isIP(address);
  if (family === 0) throw new TypeError(`not an IP address: ${address}`);
  const bytes = family === 4 ? ipv4Bytes(address) : ipv6Bytes(address);
  const prefix = prefixText === undefined ? bytes.length * 8 : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > bytes.length * 8)
    throw new TypeError(`bad prefix length in ${cidr}`);
  return { bytes, prefix, name };
}

const V4_REFUSED: Range[] = [
  ['0.0.0.0/8', 'this network'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'shared address space (CGNAT)'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', '6to4 relay anycast'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
].map(([cidr, name]) => parseCidr(cidr!, name));

const V6_REFUSED: Range[] = [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['100::/64', 'discard-only'],
  ['2001::/23', 'IETF protocol assignments'],
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'],
  ['fc00::/7', 'unique-local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
].map(([cidr, name]) => parseCidr(cidr!, name));

/**
 * IPv6 ranges that carry an IPv4 address, and where it sits. The IPv4-compatible form is
 * deprecated (RFC 4291) and reaches nothing public: it is judged by its IPv4 address's range only
 * to name it, then refused with the rest of what lies outside global unicast.
 */
const V6_CARRIERS: { range: Range; at: number; public: boolean }[] = [
  { range: parseCidr('::ffff:0:0/96', 'IPv4-mapped'), at: 12, public: true },
  { range: parseCidr('::/96', 'IPv4-compatible'), at: 12, public: false },
  { range: parseCidr('64:ff9b::/96', 'NAT64'), at: 12, public: true },
  { range: parseCidr('64:ff9b:1::/48', 'local NAT64'), at: 12, public: true },
  { range: parseCidr('2002::/16', '6to4'), at: 2, public: true },
];

/** The only IPv6 unicast space allocated for the Internet (RFC 4291 §2.4, IANA). */
const V6_GLOBAL_UNICAST = parseCidr('2000::/3', 'global unicast');

/** The bytes of an address (IPv4 or IPv6, brackets and zone id removed), or undefined. */
export function addressBytes(address: string): Uint8Array | undefined {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return ipv4Bytes(bare);
  if (family === 6) return ipv6Bytes(bare);
  return undefined;
}

/** Why an address is refused (the range's name), or undefined when it is a public address. */
export function refusedRange(bytes: Uint8Array): string | undefined {
  if (bytes.length === 4) return V4_REFUSED.find((r) => inRange(bytes, r))?.name;
  // :: and ::1 sit inside ::/96 (IPv4-compatible) but are themselves
  const own = V6_REFUSED.slice(0, 2).find((r) => inRange(bytes, r));
  if (own) return own.name;
  for (const carrier of V6_CARRIERS) {
    if (!inRange(bytes, carrier.range)) continue;
    const inner = refusedRange(bytes.slice(carrier.at, carrier.at + 4));
    if (inner) return `${carrier.range.name} ${inner}`;
    if (carrier.public) return undefined;
  }
  const named = V6_REFUSED.find((r) => inRange(bytes, r))?.name;
  if (named) return named;
  return inRange(bytes, V6_GLOBAL_UNICAST) ? undefined : 'reserved (not global unicast)';
}

/** Whether one of the operator's ranges holds the address (an IPv4-mapped one as IPv4 too). */
export function allowedBy(bytes: Uint8Array, allowed: readonly Range[]): boolean {
  if (allowed.some((r) => inRange(bytes, r))) return true;
  const mapped = V6_CARRIERS[0]!.range;
  return bytes.length === 16 && inRange(bytes, mapped)
    ? allowed.some((r) => inRange(bytes.slice(12), r))
    : false;
}

export function isLoopback(bytes: Uint8Array): boolean {
  const name = refusedRange(bytes);
  return name === 'loopback' || name === 'IPv4-mapped loopback';
}

export type { Range as NetworkRange };
