import { describe, expect, it } from 'vitest';
import { LOG_VKEY_EXAMPLE } from '../../../../src/contract/examples.js';
import { TLOG_PROOF_EXAMPLE } from '../../../../src/contract/tlog-examples.js';
import { formatTlogProof } from '../../../../src/anchoring/tlog-proof.js';
import { fromHex } from '../../src/encoding.js';
import { countCosignatures } from '../../src/log/cosignature.js';
import { verifyInclusion } from '../../src/log/merkle.js';
import { noteKeyId, openNote, parseCheckpointBody, parseVerifierKey } from '../../src/log/note.js';
import { parseLogPolicy } from '../../src/log/policy.js';
import { parseTlogProof } from '../../src/log/tlog-proof.js';
import { leafHash } from '../../src/primitives.js';
import { serviceLog } from './service-log.js';

/** c2sp.org/tlog-proof parsing: the service's own files verify, malformed files are refused. */

const HASH = 'gCdY6Zv0DytkdaWXCDm1b9Q541iy0OjwaeZD0+48sHs=';
const NOTE =
  'o.test/log\n1\nk/cnD9sdef9ikI35EWi0gl3LQzYvv/g2HOncCfydCU0=\n\n\u2014 o.test/log AAAAAA==\n';

const refused = (text: string): string => {
  const parsed = parseTlogProof(text);
  if (parsed.ok) throw new Error(`accepted: ${JSON.stringify(text.slice(0, 80))}`);
  return parsed.reason;
};

describe('parseTlogProof: the service output', () => {
  it('verifies the OpenAPI example end to end (signed checkpoint, inclusion)', () => {
    const parsed = parseTlogProof(TLOG_PROOF_EXAMPLE);
    if (!parsed.ok) throw new Error(parsed.reason);
    const { index, hashes, checkpoint } = parsed.proof;
    expect(index).toBe(0);
    const key = parseVerifierKey(LOG_VKEY_EXAMPLE.trim());
    if (!key) throw new Error('example vkey');
    const opened = openNote(checkpoint, key);
    if (!opened.ok) throw new Error(opened.reason);
    const body = parseCheckpointBody(opened.text);
    const leaf = fromHex('c6b00d4868ac17543106391823b09565716e87a383a88f0d451f729b02a1284b');
    expect(body && leaf && verifyInclusion(leaf, index, body.treeSize, hashes, body.rootHash)).toBe(
      true,
    );
  });

  it('verifies every entry of a log built with the service code, against its policy', async () => {
    const log = await serviceLog(11, 3, 2);
    const policy = parseLogPolicy(log.policy);
    if (!policy.ok) throw new Error(policy.reason);
    const { origin, publicKey = new Uint8Array(), witnesses, quorum } = policy.log;
    const key = { name: origin, publicKey, keyId: noteKeyId(origin, publicKey) };
    for (const [i, entry] of log.entries.entries()) {
      const parsed = parseTlogProof(await log.proof(i, 2));
      if (!parsed.ok) throw new Error(parsed.reason);
      const opened = openNote(parsed.proof.checkpoint, key);
      if (!opened.ok) throw new Error(opened.reason);
      const body = parseCheckpointBody(opened.text);
      expect(body?.origin).toBe(origin);
      const { valid } = countCosignatures(parsed.proof.checkpoint, opened.text, witnesses);
      expect(valid.length).toBeGreaterThanOrEqual(quorum);
      const { index, hashes } = parsed.proof;
      expect(index).toBe(i);
      expect(verifyInclusion(leafHash(entry), index, 11, hashes, body?.rootHash ?? entry)).toBe(
        true,
      );
    }
  });

  it('round-trips extra data, and an empty proof of a one-entry tree', () => {
    const extra = new Uint8Array([1, 2, 3, 250]);
    const text = formatTlogProof({ index: 0, proof: [], checkpoint: NOTE, extra });
    expect(text).toBe(`c2sp.org/tlog-proof@v1\nextra AQID+g==\nindex 0\n\n${NOTE}`);
    const parsed = parseTlogProof(text);
    expect(parsed).toEqual({ ok: true, proof: { index: 0, hashes: [], checkpoint: NOTE, extra } });
  });
});

describe('parseTlogProof: refusals', () => {
  const ok = `c2sp.org/tlog-proof@v1\nindex 5\n${HASH}\n\n${NOTE}`;

  it('accepts the reference shape', () => {
    expect(parseTlogProof(ok).ok).toBe(true);
  });

  it.each([
    ['another header', ok.replace('@v1', '@v2'), 'first line'],
    ['no index line', `c2sp.org/tlog-proof@v1\n${HASH}\n\n${NOTE}`, 'index'],
    ['a leading zero', ok.replace('index 5', 'index 05'), 'index'],
    ['a negative index', ok.replace('index 5', 'index -5'), 'index'],
    ['an index past 2^53', ok.replace('index 5', 'index 9007199254740993'), 'index'],
    ['two spaces', ok.replace('index 5', 'index  5'), 'index'],
    ['a short hash', ok.replace(HASH, HASH.slice(4)), 'line 3'],
    ['non-canonical base64', ok.replace(HASH, HASH.replace('s=', 't=')), 'line 3'],
    ['empty extra', ok.replace('\nindex', '\nextra \nindex'), 'extra'],
    ['extra after index', ok.replace(`${HASH}`, 'extra AQID'), 'line 3'],
    ['CRLF line ends', ok.replaceAll('\n', '\r\n'), 'carriage return'],
    ['a control character', ok.replace('o.test/log\n1', 'o.test/log\t\n1'), 'control'],
    ['no checkpoint', `c2sp.org/tlog-proof@v1\nindex 5\n${HASH}\n`, 'empty line'],
    ['an unsigned checkpoint', ok.replace('\n\n\u2014 o.test/log AAAAAA==\n', '\n'), 'signed note'],
    ['a bad signature line', ok.replace('\u2014 o.test/log', '- o.test/log'), 'signature line'],
    ['no final newline', ok.slice(0, -1), 'signed note'],
    ['an empty origin line', ok.replace(`\n\n${NOTE}`, `\n\n\n${NOTE}`), 'signed note'],
  ])('refuses %s', (_name, text, reason) => {
    expect(refused(text)).toContain(reason);
  });

  it('refuses more than 64 hashes and more than 64 KiB', () => {
    const hashes = (n: number) => `${HASH}\n`.repeat(n);
    expect(parseTlogProof(`c2sp.org/tlog-proof@v1\nindex 1\n${hashes(64)}\n${NOTE}`).ok).toBe(true);
    expect(refused(`c2sp.org/tlog-proof@v1\nindex 1\n${hashes(65)}\n${NOTE}`)).toContain('65');
    const big = `c2sp.org/tlog-proof@v1\nindex 1\n\n${NOTE.replace('o.test/log\n1', `${'x'.repeat(65_536)}\n1`)}`;
    expect(refused(big)).toContain('larger than 65536');
  });
});
