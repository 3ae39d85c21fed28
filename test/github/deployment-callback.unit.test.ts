import { describe, expect, it } from 'vitest';
import { callbackRunId } from '../../src/github/deployment-callback.js';

/**
 * The callback URL comes from the webhook: only GitHub's API origin (and, on GitHub Enterprise
 * Server, its API path) with this repository's run path is ever answered.
 */
const target = (callbackUrl: string) => ({ owner: 'octo-org', repo: 'app', callbackUrl });
const PATH = '/repos/octo-org/app/actions/runs/42/deployment_protection_rule';

describe('callbackRunId', () => {
  it("answers the run of this repository's callback on the API's own origin", () => {
    expect(callbackRunId(target(`https://api.github.com${PATH}`), 'https://api.github.com')).toBe(
      42,
    );
    const ghes = 'https://ghe.example/api/v3';
    expect(callbackRunId(target(`https://ghe.example/api/v3${PATH}`), ghes)).toBe(42);
  });

  it.each([
    ['another host', `https://attacker.example${PATH}`],
    ['another scheme', `http://api.github.com${PATH}`],
    ['another port', `https://api.github.com:8443${PATH}`],
    ['a user part', `https://x@attacker.example${PATH}`],
  ])('refuses the right path on %s', (_label, url) => {
    expect(callbackRunId(target(url), 'https://api.github.com')).toBeUndefined();
  });

  it("refuses a GitHub Enterprise Server callback on another origin or outside the API's path", () => {
    const ghes = 'https://ghe.example/api/v3';
    expect(callbackRunId(target(`https://attacker.example/api/v3${PATH}`), ghes)).toBeUndefined();
    expect(callbackRunId(target(`https://ghe.example${PATH}`), ghes)).toBeUndefined();
  });

  it('refuses another repository, a query, or a path that is not a run', () => {
    const base = 'https://api.github.com';
    const other = PATH.replace('octo-org/app', 'octo-org/app2');
    expect(callbackRunId(target(`${base}${other}`), base)).toBeUndefined();
    expect(callbackRunId(target(`${base}${PATH}?x=1`), base)).toBeUndefined();
    expect(
      callbackRunId(target(`${base}/repos/octo-org/app/actions/runs/x`), base),
    ).toBeUndefined();
    expect(callbackRunId(target('not a url'), base)).toBeUndefined();
  });
});
