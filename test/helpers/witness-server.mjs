/**
 * A witness written for the tests from c2sp.org/tlog-witness and tlog-cosignature alone, run in
 * its own process: POST /add-checkpoint verifies the log's signature, the old size, the RFC 9162
 * consistency proof, keeps the latest cosigned checkpoint in memory and answers an Ed25519
 * `cosignature/v1` line. WITNESS_MODE makes it misbehave: refuse (403), garbage (200 with junk),
 * slow (answers after 5 s), wrong-key (cosigns with another key).
 * Env: WITNESS_NAME, WITNESS_SEED (32 bytes hex), LOG_VKEY, WITNESS_MODE, WITNESS_START_SIZE.
 */
import { createHash, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { Buffer } from 'node:buffer';
import http from 'node:http';
import process from 'node:process';
import { setTimeout } from 'node:timers';

const name = process.env.WITNESS_NAME ?? 'witness.test/w1';
const mode = process.env.WITNESS_MODE ?? 'normal';
const sha256 = (...parts) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
const keyFromSeed = (hex) =>
  createPrivateKey({
    key: Buffer.concat([
      Buffer.from('302e020100300506032b657004220420', 'hex'),
      Buffer.from(hex, 'hex'),
    ]),
    format: 'der',
    type: 'pkcs8',
  });
const privateKey = keyFromSeed(process.env.WITNESS_SEED ?? '11'.repeat(32));
const otherKey = keyFromSeed('22'.repeat(32));
const rawPublic = (key) => createPublicKey(key).export({ format: 'jwk' }).x;

// the log's vkey: <name>+<hex id>+<base64(0x01 || key)>
const vkey = process.env.LOG_VKEY ?? '';
const [first, second] = [vkey.indexOf('+'), vkey.indexOf('+', vkey.indexOf('+') + 1)];
// the name and hex ID hold no '+'; the base64 key may
const [logName, logIdHex, logKeyB64] = [
  vkey.slice(0, first),
  vkey.slice(first + 1, second),
  vkey.slice(second + 1),
];
const logKey = createPublicKey({
  key: {
    kty: 'OKP',
    crv: 'Ed25519',
    x: Buffer.from(logKeyB64 ?? '', 'base64')
      .subarray(1)
      .toString('base64url'),
  },
  format: 'jwk',
});

/** Latest cosigned checkpoint of the one log this witness knows. */
let state = { size: Number(process.env.WITNESS_START_SIZE ?? 0), root: sha256(Buffer.alloc(0)) };

const node = (l, r) => sha256(Buffer.of(1), l, r);

/** RFC 9162 §2.1.4.2. */
function consistent(first, second, proof, firstHash, secondHash) {
  if (first === second) return proof.length === 0 && firstHash.equals(secondHash);
  if (first === 0 || first > second || proof.length === 0) return false;
  let path = proof;
  if ((first & (first - 1)) === 0) path = [firstHash, ...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (fn & 1) {
    fn >>= 1;
    sn >>= 1;
  }
  let fr = path[0];
  let sr = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn & 1 || fn === sn) {
      fr = node(c, fr);
      sr = node(c, sr);
      if (!(fn & 1)) {
        while (!(fn & 1) && fn !== 0) {
          fn >>= 1;
          sn >>= 1;
        }
      }
    } else {
      sr = node(sr, c);
    }
    fn >>= 1;
    sn >>= 1;
  }
  return sn === 0 && fr.equals(firstHash) && sr.equals(secondHash);
}

function answer(res, status, body, type = 'text/plain; charset=utf-8') {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

function addCheckpoint(body, res) {
  const blank = body.indexOf('\n\n');
  if (blank < 0) return answer(res, 400, 'no blank line\n');
  const head = body.slice(0, blank).split('\n');
  const old = /^old (0|[1-9][0-9]*)$/.exec(head[0] ?? '');
  if (!old) return answer(res, 400, 'bad old line\n');
  const proof = head.slice(1).map((l) => Buffer.from(l, 'base64'));
  const note = body.slice(blank + 2);
  const sigStart = note.lastIndexOf('\n\n');
  const text = note.slice(0, sigStart + 1);
  const [origin, sizeText, rootB64] = text.split('\n');
  if (origin !== logName) return answer(res, 404, 'unknown log\n');
  const id = createHash('sha256')
    .update(`${logName}\n`)
    .update(Buffer.of(1))
    .update(Buffer.from(logKeyB64, 'base64').subarray(1))
    .digest()
    .subarray(0, 4);
  const ours = note
    .slice(sigStart + 2)
    .split('\n')
    .filter(Boolean)
    .map((line) => /^\u2014 (\S+) (\S+)$/u.exec(line))
    .filter((m) => m && m[1] === logName && Buffer.from(m[2], 'base64').subarray(0, 4).equals(id));
  if (logIdHex !== id.toString('hex')) return answer(res, 500, 'bad LOG_VKEY\n');
  const signed =
    ours.length > 0 &&
    ours.every((m) =>
      verify(null, Buffer.from(text), logKey, Buffer.from(m[2], 'base64').subarray(4)),
    );
  if (!signed) return answer(res, 403, 'no valid signature by the log\n');
  const size = Number(sizeText);
  const root = Buffer.from(rootB64, 'base64');
  const oldSize = Number(old[1]);
  if (oldSize > size) return answer(res, 400, 'old size beyond the checkpoint\n');
  if (oldSize !== state.size) return answer(res, 409, `${state.size}\n`, 'text/x.tlog.size');
  if (size === 0 && !root.equals(sha256(Buffer.alloc(0))))
    return answer(res, 422, 'bad empty root\n');
  if (oldSize === 0 && proof.length > 0) return answer(res, 422, 'proof from size 0\n');
  if (oldSize > 0 && !consistent(oldSize, size, proof, state.root, root)) {
    return answer(res, 422, 'not consistent with what I cosigned\n');
  }
  state = { size, root };
  const timestamp = BigInt(Math.floor(Date.now() / 1000));
  const message = Buffer.from(`cosignature/v1\ntime ${timestamp}\n${text}`);
  const key = mode === 'wrong-key' ? otherKey : privateKey;
  const keyId = createHash('sha256')
    .update(`${name}\n`)
    .update(Buffer.of(4))
    .update(Buffer.from(rawPublic(privateKey), 'base64url'))
    .digest()
    .subarray(0, 4);
  const ts = Buffer.alloc(8);
  ts.writeBigUInt64BE(timestamp);
  const blob = Buffer.concat([keyId, ts, sign(null, message, key)]);
  return answer(res, 200, `\u2014 ${name} ${blob.toString('base64')}\n`);
}

const server = http.createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/add-checkpoint')
    return answer(res, 404, 'not found\n');
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    if (mode === 'refuse') return answer(res, 403, 'refused\n');
    if (mode === 'garbage') return answer(res, 200, '\u2014 nonsense AAAA\nhello\n');
    if (mode === 'slow') return setTimeout(() => addCheckpoint(body, res), 5_000);
    return addCheckpoint(body, res);
  });
});
server.listen(Number(process.env.WITNESS_PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port} ${rawPublic(privateKey)}\n`);
});
