import type { FastifyReply } from 'fastify';

/**
 * A list's next page for a client: its cursor in `x-next-cursor`, and an RFC 8288 `Link`
 * (`rel="next"`) to `path` with `query` in its order (the next cursor among it, dates as
 * ISO 8601, unset values left out). Nothing when there is no next page (`query.cursor` unset).
 */
export function linkNextPage(
  reply: FastifyReply,
  path: string,
  query: { cursor: string | undefined } & Record<string, string | number | Date | undefined>,
): void {
  if (!query.cursor) return;
  reply.header('x-next-cursor', query.cursor);
  const next = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined)
      next.set(name, value instanceof Date ? value.toISOString() : String(value));
  }
  reply.header('link', `<${path}?${next.toString()}>; rel="next"`);
}
