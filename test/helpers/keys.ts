import { createPrivateKey } from 'node:crypto';

/** RFC 8032 §7.1 TEST 1: a published Ed25519 key, so signatures in tests are fixed bytes. */
export const RFC8032_TEST1_SEED =
  '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
export const RFC8032_TEST1_PUBLIC =
  'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';

/** The TEST 1 private key as PKCS#8 PEM. */
export function rfc8032Test1Pem(): string {
  const der = Buffer.from(`302e020100300506032b657004220420${RFC8032_TEST1_SEED}`, 'hex');
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })
    .export({ format: 'pem', type: 'pkcs8' })
    .toString();
}
