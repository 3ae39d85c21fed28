import { describe, expect, it } from 'vitest';
import { LOG_POLICY_EXAMPLE } from '../../../../src/contract/tlog-examples.js';
import { formatLogPolicy } from '../../../../src/anchoring/tlog-policy.js';
import { hex } from '../../src/encoding.js';
import { parseLogPolicy } from '../../src/log/policy.js';
import { cosignerVkey, ORIGIN, serviceLog } from './service-log.js';

/** c2sp.org/tlog-policy parsing into a PinnedLog: the service's policies, and the spec's rules. */

const LOG = 'receipts.example.com/log+c8e21560+AT85pzhuxm99i7hBJ5nV0p44DBl7ki9J0cisCls3SrUK';
const W1 = 'witness.example.org+41f16e5f+BD5dajf+AaAvjuOF+JiI1DbhpJ/YyI/1+yvhjaegHOEz';
const W2 = 'witness.example.net+3c977a3f+BLb6xnZ1rFuMb+FbnvfSFY9XAC9krUsVWjjqgjwjZxtD';

const refused = (text: string): string => {
  const parsed = parseLogPolicy(text);
  if (parsed.ok) throw new Error(`accepted:\n${text.slice(0, 400)}`);
  return parsed.reason;
};
const pinned = (text: string) => {
  const parsed = parseLogPolicy(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.log;
};

describe('parseLogPolicy: the service output', () => {
  it.each([
    [0, 0],
    [1, 1],
    [3, 1],
    [3, 2],
    [3, 3],
  ])('%i witnesses, quorum %i', async (count, quorum) => {
    const log = await serviceLog(1, count, quorum);
    const parsed = pinned(log.policy);
    expect(parsed.origin).toBe(ORIGIN);
    expect(hex(parsed.publicKey ?? new Uint8Array())).toBe(hex(log.logKey.publicKey));
    expect(parsed.quorum).toBe(quorum);
    expect(parsed.witnesses.map((w) => w.name)).toEqual(log.witnesses.map((w) => w.name));
    expect(parsed.witnesses.map((w) => hex(w.publicKey))).toEqual(
      log.witnesses.map((w) => hex(w.publicKey)),
    );
  });

  it('reads the OpenAPI example: one of two witnesses', () => {
    const parsed = pinned(LOG_POLICY_EXAMPLE);
    expect(parsed.origin).toBe('receipts.example.com/log');
    expect(parsed.witnesses.map((w) => w.name)).toEqual([
      'witness.example.org',
      'witness.example.net',
    ]);
    expect(parsed.quorum).toBe(1);
  });

  it('names the group so that it collides with no witness', () => {
    const text = formatLogPolicy({
      logVkey: LOG,
      witnesses: [
        { name: 'witnesses', vkey: W1 },
        { name: 'witness.example.net', vkey: W2 },
      ],
      quorum: 2,
    });
    expect(text).toContain('quorum witnesses-group\n');
    expect(pinned(text).quorum).toBe(2);
  });

  it('renames a witness whose key name is the predefined none', () => {
    const none = cosignerVkey({ name: 'none', publicKey: new Uint8Array(32).fill(3) });
    const text = formatLogPolicy({
      logVkey: LOG,
      witnesses: [{ name: 'none', vkey: none }],
      quorum: 1,
    });
    expect(text).toBe(`log ${LOG}\nwitness witness-1 ${none}\nquorum witness-1\n`);
    expect(pinned(text).witnesses.map((w) => w.name)).toEqual(['none']);
  });
});

describe('parseLogPolicy: syntax', () => {
  it('takes comments, blank lines, tabs, URLs, all/any and no final newline', () => {
    const text = [
      '# our log',
      `  log\t${LOG}  https://receipts.example.com/log  `,
      '',
      `witness a ${W1} https://a.example/`,
      `\twitness b ${W2}`,
      '   # the quorum',
      'group both all a b',
      'group either any a b',
      'quorum both',
    ].join('\n');
    expect(pinned(text).quorum).toBe(2);
    expect(pinned(text.replace('quorum both', 'quorum either')).quorum).toBe(1);
    expect(pinned(text.replace('quorum both', 'quorum b')).witnesses.map((w) => w.name)).toEqual([
      'witness.example.net',
    ]);
    expect(pinned(text.replace('quorum both', 'quorum none'))).toMatchObject({
      quorum: 0,
      witnesses: [],
    });
  });

  const base = `log ${LOG}\nwitness a ${W1}\nwitness b ${W2}\n`;
  it.each([
    ['no quorum', base, 'no quorum line'],
    ['two quorum lines', `${base}quorum a\nquorum b\n`, 'line 5: a second quorum'],
    ['a quorum not defined above', `quorum a\n${base}`, 'line 1: a is not defined'],
    ['a member not defined above', `${base}group g 1 a c\nquorum g\n`, 'c is not defined'],
    ['none as a member', `${base}group g 1 a none\nquorum g\n`, 'none cannot be a group member'],
    ['a member listed twice', `${base}group g 1 a a\nquorum g\n`, 'listed twice'],
    ['k above n', `${base}group g 3 a b\nquorum g\n`, 'threshold 3'],
    ['k of 0', `${base}group g 0 a b\nquorum g\n`, 'threshold 0'],
    ['a leading zero in k', `${base}group g 01 a b\nquorum g\n`, 'threshold 01'],
    ['a group without members', `${base}group g any\nquorum g\n`, 'expected "group'],
    ['a name defined twice', `${base}witness a ${W1.replace('41f1', '41f2')}\n`, 'already defined'],
    ['a witness named none', `log ${LOG}\nwitness none ${W1}\nquorum none\n`, 'already defined'],
    ['a duplicate witness key', `${base}witness c ${W1}\nquorum none\n`, 'duplicate witness key'],
    ['no log', `witness a ${W1}\nquorum a\n`, 'no log line'],
    ['a second log', `${base}log ${LOG.replace('receipts', 'other')}\nquorum a\n`, 'line 4'],
    ['a duplicate log', `${base}log ${LOG}\nquorum a\n`, 'duplicate log'],
    ['a cosigner key as the log key', `log ${W1}\nquorum none\n`, 'type 0x01'],
    ['a note key as a witness key', `log ${LOG}\nwitness a ${LOG}\nquorum a\n`, 'type 0x04'],
    ['a key ID that does not match', `log ${LOG.replace('c8e2', 'c8e3')}\nquorum none\n`, '0x01'],
    ['an unknown line', `${base}quorum a\nwitnesses 2\n`, 'unknown line type witnesses'],
    ['a prototype name as a line', `${base}quorum a\n__proto__ x\n`, 'unknown line type'],
    ['too many items', `${base}quorum a b\n`, 'expected "quorum <name>"'],
    ['a carriage return', `${base}quorum a\r\n`, 'control character'],
    ['a NUL', `${base}quorum a\u0000\n`, 'control character'],
  ])('refuses %s', (_name, text, reason) => {
    expect(refused(text)).toContain(reason);
  });

  it('refuses the spec example quorum of nested groups, clearly', () => {
    const w = (name: string, i: number) => {
      const key = new Uint8Array(32).fill(i + 1);
      return `witness ${name} ${cosignerVkey({ name: `${name}.test`, publicKey: key })}`;
    };
    const text = [
      `log ${LOG}`,
      ...['X1', 'X2', 'X3', 'Y1', 'Y2', 'Y3'].map(w),
      'group X-witnesses 2 X1 X2 X3',
      'group Y-witnesses any Y1 Y2 Y3',
      'group X-and-Y all X-witnesses Y-witnesses',
      'quorum X-and-Y',
    ].join('\n');
    expect(refused(text)).toBe(
      'the quorum group X-and-Y has the group X-witnesses as a member: nested groups are not supported',
    );
    expect(pinned(text.replace('quorum X-and-Y', 'quorum X-witnesses')).quorum).toBe(2);
  });

  it('refuses two quorum witnesses with one key name', () => {
    const other = cosignerVkey({
      name: 'witness.example.org',
      publicKey: new Uint8Array(32).fill(7),
    });
    const text = `log ${LOG}\nwitness a ${W1}\nwitness b ${other}\ngroup g 1 a b\nquorum g\n`;
    expect(refused(text)).toContain('share the key name witness.example.org');
  });

  it('refuses more than 100 witnesses and more than 64 KiB', () => {
    const lines = Array.from({ length: 101 }, (_, i) => {
      const key = new Uint8Array(32);
      key[0] = i;
      return `witness n${i} ${cosignerVkey({ name: `w${i}.test`, publicKey: key })}`;
    });
    expect(pinned(`log ${LOG}\n${lines.slice(0, 100).join('\n')}\nquorum n0\n`).quorum).toBe(1);
    expect(refused(`log ${LOG}\n${lines.join('\n')}\nquorum n0\n`)).toBe(
      'line 102: more than 100 witnesses',
    );
    expect(refused(`log ${LOG}\n# ${'x'.repeat(65_536)}\nquorum none\n`)).toContain('65536');
  });
});
