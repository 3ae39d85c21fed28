import { describe, expect, it } from 'vitest';
import { localAndUtc } from '../../src/pdf/layout.js';
import { printable, wrapMono, wrapShell } from '../../src/pdf/text.js';

describe('pdf layout helpers', () => {
  it('wrapMono breaks at spaces and hard-splits tokens longer than a line', () => {
    expect(wrapMono('abc def ghi', 7)).toEqual(['abc def', 'ghi']);
    const hash = `sha256:${'ab'.repeat(32)}`;
    const lines = wrapMono(hash, 30);
    expect(lines.every((l) => l.length <= 30)).toBe(true);
    expect(lines.join('')).toBe(hash);
    expect(wrapMono('', 10)).toEqual(['']);
  });

  it('wrapShell keeps the command pasteable: " \\" at spaces, "\\" inside split tokens', () => {
    const url = `https://example.com/${'x'.repeat(40)}`;
    const lines = wrapShell(`curl -X POST "${url}"`, 24);
    expect(lines.every((l) => l.length <= 24)).toBe(true);
    expect(lines.slice(0, -1).every((l) => l.endsWith('\\'))).toBe(true);
    // What bash sees after removing backslash-newline pairs.
    expect(lines.join('\n').replace(/\\\n/g, '')).toBe(`curl -X POST "${url}"`);
    expect(wrapShell('curl -X POST x', 80)).toEqual(['curl -X POST x']);
  });

  it('printable keeps Latin-1 and WinAnsi punctuation and replaces the rest', () => {
    expect(printable('Zoë – “ok” €5')).toBe('Zoë – “ok” €5');
    expect(printable('日本\tx ✓')).toBe('?? x ?');
  });

  it('localAndUtc: local time in the named zone with UTC beside; UTC alone in UTC', () => {
    const at = '2025-07-04T17:05:09.123Z';
    expect(localAndUtc(at, 'America/Chicago')).toBe(
      '4 July 2025 at 12:05 (America/Chicago); 2025-07-04 17:05:09 UTC',
    );
    expect(localAndUtc(at, 'UTC')).toBe('2025-07-04 17:05:09 UTC');
    expect(localAndUtc('not a time', 'UTC')).toBe('not a time');
  });
});
