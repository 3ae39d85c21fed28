import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// `npm ci` prints EBADENGINE for every installed package whose `engines.node`
// excludes the running Node. The lockfile records each package's range, so the
// promise "no engine warnings on the Node versions we support" is checkable
// without installing anything: the lowest version package.json declares, and
// the Node running the suite, must satisfy every range in the lockfile.
interface LockPackage {
  engines?: { node?: string } | string[];
  hasInstallScript?: boolean;
}

const root = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  engines: { node: string };
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  packages: Record<string, LockPackage>;
};

function nodeRange(entry: LockPackage): string | undefined {
  const engines = entry.engines;
  return engines && !Array.isArray(engines) ? engines.node : undefined;
}

function offenders(version: string): string[] {
  return Object.entries(lock.packages)
    .filter(([path]) => path !== '')
    .filter(([, entry]) => {
      const range = nodeRange(entry);
      return range !== undefined && !semver.satisfies(version, range);
    })
    .map(
      ([path, entry]) => `${path.replace(/^.*node_modules\//, '')} wants node ${nodeRange(entry)}`,
    );
}

describe('supported Node versions', () => {
  const lowest = semver.minVersion(manifest.engines.node)?.version ?? '';

  it('package.json declares a lower bound', () => {
    expect(lowest).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('every locked package accepts the lowest declared Node', () => {
    expect(offenders(lowest)).toEqual([]);
  });

  it('every locked package accepts the Node running the suite', () => {
    expect(semver.satisfies(process.version, manifest.engines.node)).toBe(true);
    expect(offenders(process.version)).toEqual([]);
  });
});

// npm 11 warns on every install about a dependency whose install script `allowScripts` does not
// cover (and npm 12 skips the script): each one in the lockfile is reviewed and listed by name.
describe('dependency install scripts', () => {
  it('every locked package with an install script is approved in allowScripts', () => {
    const unreviewed = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.hasInstallScript === true)
      .map(([path]) => path.replace(/^.*node_modules\//, ''))
      .filter((name) => manifest.allowScripts?.[name] !== true);
    expect(unreviewed).toEqual([]);
  });
});
