import { describe, expect, it } from 'vitest';
import { BodyTooLargeError, readBounded } from '../src/bounded-body.js';

/** Bodies of other servers' answers are read up to a limit, never further. */
function streamed(
  chunks: number[],
  headers: Record<string, string> = {},
): { res: Response; pulled: () => number } {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const size = chunks[pulled];
      if (size === undefined) return controller.close();
      pulled += 1;
      controller.enqueue(new Uint8Array(size).fill(97));
    },
  });
  return { res: new Response(body, { headers }), pulled: () => pulled };
}

describe('readBounded', () => {
  it('returns a body up to the limit, exactly', async () => {
    const { res } = streamed([3, 4]);
    expect(new TextDecoder().decode(await readBounded(res, 7))).toBe('aaaaaaa');
    expect(await readBounded(new Response(null), 0)).toEqual(new Uint8Array());
  });

  it('stops at the first chunk past the limit and cancels the rest', async () => {
    const { res, pulled } = streamed([4, 4, 4, 4, 4, 4]);
    await expect(readBounded(res, 7)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(pulled()).toBeLessThanOrEqual(3);
  });

  it('refuses a body that declares more than the limit before reading any of it', async () => {
    const { res, pulled } = streamed([4], { 'content-length': '8' });
    await expect(readBounded(res, 7)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(pulled()).toBe(0);
    const within = streamed([4], { 'content-length': '4' });
    expect(await readBounded(within.res, 7)).toHaveLength(4);
  });
});
