import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** What the docs say a reader of the public log learns must match what the log publishes. */
const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/\s+/g, ' ');

describe('the privacy of the public log, as documented', () => {
  it('the README does not claim a receipt hash is unguessable, and says the tiles list them', () => {
    const readme = read('README.md');
    expect(readme).not.toMatch(/cannot be guessed/);
    expect(readme).toContain('the entry tiles list every receipt hash');
  });

  it('docs/log.md says what a reader learns and decides the revocation entry format', () => {
    const log = read('docs/log.md');
    expect(log).toContain('## What a reader of the log learns');
    expect(log).toContain('### Revocation entries carry ids in the clear (decision)');
    expect(log).toMatch(/the receipt's hash and id, the issuer id/);
  });
});
