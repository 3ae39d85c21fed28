import { describe, expect, it } from 'vitest';
import { LogWaiters, type Attempt } from '../../src/receipts/log-waiters.js';
import type { SealNotices } from '../../src/receipts/ports.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Notices sent by the test, as the store's feed would; counts subscriptions. */
class TestNotices implements SealNotices {
  readonly listeners = new Set<() => void>();
  subscriptions = 0;
  live = true;

  subscribe(fn: () => void): () => void {
    this.subscriptions += 1;
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  seal(): void {
    for (const fn of this.listeners) fn();
  }
}

/** The store as the waiters see it: which receipts are sealed, and every probe they asked. */
function fixture(fallbackPollMs = 1_000) {
  const notices = new TestNotices();
  const cosignatures = new TestNotices();
  const sealed = new Set<string>();
  const witnessed = new Set<string>();
  const probes: string[][] = [];
  let probeGate: Promise<void> | undefined;
  let failing = false;
  const waiters = new LogWaiters(
    {
      sealed: {
        notices,
        probe: async (ids) => {
          probes.push([...ids]);
          await probeGate;
          if (failing) throw new Error('store unreachable');
          return new Set(ids.filter((id) => sealed.has(id)));
        },
      },
      witnessed: {
        notices: cosignatures,
        probe: async (ids) => new Set(ids.filter((id) => witnessed.has(id))),
      },
    },
    fallbackPollMs,
  );
  const looks = new Map<string, number>();
  /** A waiter whose look is done once its receipt is sealed; the value says how many looks. */
  const wait = (id: string, ms: number) =>
    waiters.until('sealed', id, Date.now() + ms, async (): Promise<Attempt<string>> => {
      looks.set(id, (looks.get(id) ?? 0) + 1);
      return { done: sealed.has(id), value: sealed.has(id) ? 'sealed' : 'pending' };
    });
  return {
    notices,
    cosignatures,
    witnessed,
    sealed,
    probes,
    waiters,
    looks,
    wait,
    hold: (gate: Promise<void>) => (probeGate = gate),
    fail: (on: boolean) => (failing = on),
    totalLooks: () => [...looks.values()].reduce((a, b) => a + b, 0),
  };
}

const ids = (n: number, prefix = 'r') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('LogWaiters', () => {
  it('200 waiters with no seal: one look each, no read of their own while they wait', async () => {
    const f = fixture();
    const all = ids(200).map((id) => f.wait(id, 400));
    await sleep(20);
    expect(f.waiters.size).toBe(200);
    expect(f.notices.subscriptions).toBe(1);
    expect(await Promise.all(all)).toEqual(ids(200).map(() => 'pending'));
    expect(f.totalLooks()).toBe(200);
    expect(f.probes).toHaveLength(0);
    expect(f.waiters.size).toBe(0);
    expect(f.notices.listeners.size).toBe(0);
  });

  it('a seal: one probe for every waiter, and only the waiters it placed look again', async () => {
    const f = fixture();
    const all = ids(200).map((id) => f.wait(id, 2_000));
    await sleep(20);
    for (const id of ids(50)) f.sealed.add(id);
    f.notices.seal();
    const done = await Promise.all(all.slice(0, 50));
    expect(done).toEqual(ids(50).map(() => 'sealed'));
    expect(f.probes).toHaveLength(1);
    expect(new Set(f.probes[0])).toEqual(new Set(ids(200)));
    // the 50 placed: the first look and one after the seal; the 150 others: only the first
    expect(f.totalLooks()).toBe(200 + 50);
    for (const id of ids(50)) f.sealed.delete(id);
    for (const id of ids(200).slice(50)) f.sealed.add(id);
    f.notices.seal();
    expect(await Promise.all(all.slice(50))).toEqual(ids(150).map(() => 'sealed'));
    expect(f.probes).toHaveLength(2);
    expect(new Set(f.probes[1])).toEqual(new Set(ids(200).slice(50)));
    expect(f.totalLooks()).toBe(400);
  });

  it('notices arriving during a probe make one more probe, not one each', async () => {
    const f = fixture();
    const all = ids(20).map((id) => f.wait(id, 2_000));
    await sleep(20);
    let open = () => undefined as void;
    f.hold(new Promise<void>((resolve) => (open = resolve)));
    f.notices.seal(); // the probe starts and waits for the gate
    for (let i = 0; i < 30; i += 1) f.notices.seal(); // seals committed meanwhile
    for (const id of ids(20)) f.sealed.add(id);
    f.hold(Promise.resolve());
    open();
    expect(await Promise.all(all)).toEqual(ids(20).map(() => 'sealed'));
    expect(f.probes).toHaveLength(2);
  });

  it('a wake that arrives while the waiter is still looking makes it look once more', async () => {
    const f = fixture();
    let lookGate = () => undefined as void;
    let looks = 0;
    const result = f.waiters.until('sealed', 'r0', Date.now() + 2_000, async () => {
      looks += 1;
      const sealedBefore = f.sealed.has('r0');
      // the first look read the store before the seal committed, and ends after its notice
      if (looks === 1) await new Promise<void>((resolve) => (lookGate = resolve));
      return { done: sealedBefore, value: sealedBefore };
    });
    await sleep(10);
    f.sealed.add('r0');
    f.notices.seal();
    await sleep(10);
    lookGate();
    expect(await result).toBe(true);
    expect(looks).toBe(2);
  });

  it('witnessed waiters are woken by cosignatures, not by seals, and sealed ones not by cosignatures', async () => {
    const f = fixture();
    let looks = 0;
    const cosigned = f.waiters.until('witnessed', 'w1', Date.now() + 2_000, async () => {
      looks += 1;
      return { done: f.witnessed.has('w1'), value: f.witnessed.has('w1') };
    });
    const sealedWait = f.wait('s1', 300);
    await sleep(20);
    f.sealed.add('w1');
    f.notices.seal();
    await sleep(20);
    expect(looks).toBe(1);
    expect(f.cosignatures.subscriptions).toBe(1);
    f.witnessed.add('w1');
    f.witnessed.add('s1');
    f.cosignatures.seal();
    expect(await cosigned).toBe(true);
    expect(looks).toBe(2);
    // a cosignature never wakes a waiter for a seal: it ends on its deadline
    expect(await sealedWait).toBe('pending');
    expect(f.looks.get('s1')).toBe(1);
  });

  it('ends on its deadline with what it last read', async () => {
    const f = fixture();
    const started = Date.now();
    expect(await f.wait('r0', 300)).toBe('pending');
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('while notices may be missed, one probe per interval for all waiters; none while live', async () => {
    const f = fixture(100);
    const all = ids(100).map((id) => f.wait(id, 10_000));
    await sleep(350);
    expect(f.probes).toHaveLength(0); // live: the notices say when to look
    f.notices.live = false;
    const started = Date.now();
    while (f.probes.length < 3) {
      expect(Date.now() - started).toBeLessThan(2_500);
      await sleep(10);
    }
    // one probe per interval at most, whatever the number of waiters
    expect(f.probes.length).toBeLessThanOrEqual(Math.floor((Date.now() - started) / 100) + 1);
    expect(new Set(f.probes[0])).toEqual(new Set(ids(100)));
    expect(f.totalLooks()).toBe(100); // probes found nothing: nobody looked again
    for (const id of ids(100)) f.sealed.add(id); // a seal whose notice was lost
    expect(await Promise.all(all)).toEqual(ids(100).map(() => 'sealed'));
    expect(f.totalLooks()).toBe(200);
  });

  it('a probe that fails leaves the waiters to their deadline, never an error', async () => {
    const f = fixture();
    const all = ids(10).map((id) => f.wait(id, 400));
    await sleep(20);
    f.fail(true);
    f.sealed.add('r0');
    f.notices.seal();
    const answers = await Promise.all(all);
    expect(f.probes).toHaveLength(1);
    expect(answers.slice(1)).toEqual(ids(9).map(() => 'pending'));
    expect(f.looks.get('r1')).toBe(1);
  });

  it('a waiter whose look throws leaves the registry', async () => {
    const f = fixture();
    await expect(
      f.waiters.until('sealed', 'gone', Date.now() + 1_000, () =>
        Promise.reject(new Error('not found')),
      ),
    ).rejects.toThrow('not found');
    expect(f.waiters.size).toBe(0);
    expect(f.notices.listeners.size).toBe(0);
  });
});
