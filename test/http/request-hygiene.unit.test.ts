import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/http/request-hygiene.js';

describe('redactUrl', () => {
  it('redacts the values of credential-like query parameters, whatever their case or encoding', () => {
    expect(redactUrl('/api/v1/receipts?limit=2&x-api-key=vrs_abc')).toBe(
      '/api/v1/receipts?limit=2&x-api-key=[redacted]',
    );
    expect(redactUrl('/x?API_KEY=1&Token=2&access_token=3&x%2Dapi%2Dkey=4&signature=5')).toBe(
      '/x?API_KEY=[redacted]&Token=[redacted]&access_token=[redacted]&x%2Dapi%2Dkey=[redacted]&signature=[redacted]',
    );
  });

  it('leaves other URLs as they are, malformed encodings included', () => {
    for (const url of ['/healthz', '/x?limit=5&cursor=abc', '/x?%E0%A4%A=1', '/x?', '/x?&&']) {
      expect(redactUrl(url)).toBe(url);
    }
  });
});
