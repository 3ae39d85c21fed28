import http from 'node:http';

/** The driver's HTTP client: one request at a time on a keep-alive agent, bounded in time. */

const REQUEST_TIMEOUT_MS = 30_000;

export interface Answer {
  status: number;
  body: string;
}

export function send(
  agent: http.Agent,
  base: URL,
  method: 'GET' | 'POST',
  urlPath: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method,
        path: urlPath,
        headers: body
          ? {
              ...headers,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
            }
          : headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () =>
      req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })),
    );
    req.on('error', reject);
    req.end(body);
  });
}
