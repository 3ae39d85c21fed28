import { describe, expect, it } from 'vitest';
import { TargetPolicy, TargetRefused, type Resolver } from '../../src/webhooks/target.js';
import { addressBytes, refusedRange } from '../../src/webhooks/addresses.js';

/** Which addresses a webhook may reach: pure checks on literals and on a given resolver's answers. */

const refused = (address: string) => refusedRange(addressBytes(address)!);

describe('refused address ranges', () => {
  it('refuses private, loopback, link-local, CGNAT, multicast and reserved IPv4', () => {
    for (const [address, range] of [
      ['127.0.0.1', 'loopback'],
      ['127.255.0.9', 'loopback'],
      ['10.0.0.1', 'private'],
      ['172.16.5.4', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.1.1', 'private'],
      ['169.254.169.254', 'link-local'],
      ['100.64.0.1', 'shared address space (CGNAT)'],
      ['0.0.0.0', 'this network'],
      ['224.0.0.251', 'multicast'],
      ['255.255.255.255', 'reserved'],
    ])
      expect(refused(address!), address).toBe(range);
  });

  it('refuses loopback, unique-local, link-local and multicast IPv6, and IPv4 carried in IPv6', () => {
    for (const [address, range] of [
      ['::1', 'loopback'],
      ['::', 'unspecified'],
      ['fd12:3456::1', 'unique-local'],
      ['fc00::1', 'unique-local'],
      ['fe80::1%eth0', 'link-local'],
      ['ff02::1', 'multicast'],
      ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
      ['::ffff:7f00:1', 'IPv4-mapped loopback'],
      ['::ffff:a9fe:a9fe', 'IPv4-mapped link-local'],
      ['[::ffff:10.0.0.1]', 'IPv4-mapped private'],
      ['64:ff9b::a9fe:a9fe', 'NAT64 link-local'],
      ['2002:0a00:0001::1', '6to4 private'],
      ['::7f00:1', 'IPv4-compatible loopback'],
      ['3fff::1', 'documentation'],
    ])
      expect(refused(address!), address).toBe(range);
  });

  it('refuses IPv6 outside global unicast that carries no public IPv4 address', () => {
    for (const address of [
      // IPv4-translated (SIIT) loopback: neither mapped nor compatible
      '::ffff:0:7f00:1',
      // IPv4-compatible (deprecated) with a public address: reaches nothing public
      '::8.8.8.8',
      '100::1',
      '4000::1',
      'e000::1',
    ])
      expect(refused(address), address).toMatch(/./);
  });

  it('lets public addresses through', () => {
    for (const address of [
      '93.184.216.34',
      '8.8.8.8',
      '172.32.0.1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
    ])
      expect(refused(address), address).toBeUndefined();
  });
});

/** A resolver answering from a table: what a name resolving to an internal address looks like. */
const table =
  (answers: Record<string, string[]>): Resolver =>
  async (host) =>
    (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('a target', () => {
  const resolver = table({
    'metadata.example': ['169.254.169.254'],
    'internal.example': ['10.0.0.1'],
    'mixed.example': ['93.184.216.34', '127.0.0.1'],
    'public.example': ['93.184.216.34'],
    'mapped.example': ['::ffff:127.0.0.1'],
  });
  const policy = new TargetPolicy([], resolver);

  it('of 127.0.0.1, 10.0.0.1, 169.254.169.254 or a name resolving to them is refused by default', async () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://[::ffff:169.254.169.254]/hook',
      'https://metadata.example/hook',
      'https://internal.example/hook',
      'https://mapped.example/hook',
      'https://mixed.example/hook',
    ])
      await expect(policy.check(url), url).rejects.toThrow(TargetRefused);
  });

  it('of a loopback, private or link-local address in any spelling the URL parser accepts is refused', async () => {
    // WHATWG URL parsing turns decimal, octal, hex and short IPv4 forms into dotted quads, and
    // IPv6 into its compressed form: each is judged as the address it names
    for (const url of [
      'https://2130706433/hook',
      'https://0177.0.0.1/hook',
      'https://0x7f000001/hook',
      'https://0x7f.1/hook',
      'https://127.1/hook',
      'https://017700000001/hook',
      'https://127.0.0.1./hook',
      'https://%31%32%37.0.0.1/hook',
      'https://0/hook',
      'https://0.0.0.0/hook',
      'https://167772161/hook', // 10.0.0.1
      'https://0xa9fea9fe/hook', // 169.254.169.254
      'https://[::]/hook',
      'https://[0:0:0:0:0:0:0:1]/hook',
      'https://[0:0:0:0:0:ffff:127.0.0.1]/hook',
      'https://[::127.0.0.1]/hook',
      'https://[::ffff:0:127.0.0.1]/hook',
      'https://[fe80::1]/hook',
      'https://[fc00::1]/hook',
      'https://[fd00:ec2::254]/hook',
    ])
      await expect(policy.check(url), url).rejects.toThrow(TargetRefused);
  });

  it('whose name does not resolve in the time given is refused, without waiting for it', async () => {
    const stalled = new TargetPolicy([], () => new Promise(() => undefined), 30);
    await expect(stalled.check('https://slow.example/hook')).rejects.toThrow(
      /did not resolve within 30 ms/,
    );
    await expect(stalled.check('https://slow.example/hook', 10)).rejects.toThrow(/within 10 ms/);
  });

  it('of a public name is accepted, and the address checked is the one to connect to', async () => {
    const checked = await policy.check('https://public.example/hook');
    expect(checked).toMatchObject({ address: '93.184.216.34', family: 4 });
  });

  it('must be https, without credentials, and resolve', async () => {
    await expect(policy.check('http://public.example/')).rejects.toThrow(/https/);
    await expect(policy.check('ftp://public.example/')).rejects.toThrow(/https/);
    await expect(policy.check('https://u:p@public.example/')).rejects.toThrow(/credentials/);
    await expect(policy.check('https://nowhere.example/')).rejects.toThrow(/does not resolve/);
    await expect(policy.check('not a url')).rejects.toThrow(/absolute URL/);
    await expect(policy.check(`https://public.example/${'a'.repeat(2100)}`)).rejects.toThrow(
      /too long/,
    );
  });

  it("is allowed into an operator's network, and http only to an allowed loopback", async () => {
    const allowing = new TargetPolicy(['10.0.0.0/8', '127.0.0.1/32'], resolver);
    await expect(allowing.check('https://internal.example/hook')).resolves.toMatchObject({
      address: '10.0.0.1',
    });
    await expect(allowing.check('http://127.0.0.1:8080/hook')).resolves.toMatchObject({
      address: '127.0.0.1',
    });
    await expect(allowing.check('http://internal.example/hook')).rejects.toThrow(/https/);
    await expect(allowing.check('https://metadata.example/')).rejects.toThrow(/link-local/);
  });
});
