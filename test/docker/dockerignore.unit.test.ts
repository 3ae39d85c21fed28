import { describe, expect, it } from 'vitest';
import { ignored } from './dockerignore-matcher.js';
import { ignoreRules } from './image.js';

/** The build context .dockerignore leaves for the Docker image (matched like Docker does). */

describe('.dockerignore', () => {
  it.each(['node_modules', 'dist', 'data', '.git', '.env', 'secrets', 'coverage', 'npm-debug.log'])(
    'leaves %s out of the build context',
    (file) => {
      expect(ignored(ignoreRules, file)).toBe(true);
      expect(ignored(ignoreRules, `${file}/some/file`)).toBe(true);
    },
  );

  it('leaves out nested node_modules, logs and secrets too', () => {
    for (const file of ['src/x/node_modules/a.js', 'bench/run.log', 'data/signing-key.pem']) {
      expect(ignored(ignoreRules, file), file).toBe(true);
    }
  });
});
