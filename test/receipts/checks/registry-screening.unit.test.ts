import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkRegistryScreening } from '../../../src/receipts/checks/registry-screening.js';
import type { VerificationRequest } from '../../../src/contract/verification.js';
import { ScreeningLists, UnknownScreeningSourceError } from '../../../src/screening/lists.js';
import { context, profile, request, SAMPLE_LISTS_DIR } from './helpers.js';
import { loadScreeningLists } from '../../../src/files/screening-lists.js';

const screeningOf = (registryScreening: VerificationRequest['registryScreening']) =>
  request((r) => {
    r.registryScreening = registryScreening;
  });

let sample: ScreeningLists;
beforeAll(async () => {
  sample = await loadScreeningLists(SAMPLE_LISTS_DIR);
});

describe('registry.screening', () => {
  it('passes without a subject under the standard profile', async () => {
    const outcome = await checkRegistryScreening(await context({ screening: sample }));
    expect(outcome).toMatchObject({ checkId: 'registry.screening', status: 'PASS' });
    expect(outcome.details).toContain('no screening performed');
  });

  it('fails screening_subject_missing without a subject under the strict profile', async () => {
    const strict = await context({ screening: sample, profile: profile('ron-strict-v1') });
    expect(await checkRegistryScreening(strict)).toMatchObject({
      status: 'FAIL',
      reason: 'screening_subject_missing',
    });
  });

  it('passes a subject with no match, recording the list version used', async () => {
    const ctx = await context({
      screening: sample,
      request: screeningOf({ subjectName: 'Harriet Homebuyer' }),
    });
    const outcome = await checkRegistryScreening(ctx);
    expect(outcome.status).toBe('PASS');
    expect(outcome.details).toContain('no match');
    expect(outcome.details).toContain(sample.info('sample-synthetic')?.sha256);
  });

  it('fails screening_strong_match on a strong match, naming the entry and score', async () => {
    const ctx = await context({
      screening: sample,
      request: screeningOf({ subjectName: 'SAMPLENKO, Dmitry', sourceIds: ['sample-synthetic'] }),
    });
    const outcome = await checkRegistryScreening(ctx);
    expect(outcome).toMatchObject({ status: 'FAIL', reason: 'screening_strong_match' });
    expect(outcome.details).toContain('sample-synthetic/SYN-0010');
    expect(outcome.details).toContain('score 1.000 (strong)');
  });

  it('warns screening_possible_match on a weak match only', async () => {
    const ctx = await context({
      screening: sample,
      request: screeningOf({ subjectName: 'Bartholomew James Nonesuch' }),
    });
    const outcome = await checkRegistryScreening(ctx);
    expect(outcome).toMatchObject({ status: 'WARN', reason: 'screening_possible_match' });
    expect(outcome.details).toContain('SYN-0004');
  });

  it('reports screening_unavailable when no lists are configured: WARN, or FAIL when required', async () => {
    const req = screeningOf({ subjectName: 'Harriet Homebuyer' });
    const empty = await loadScreeningLists(undefined);
    expect(
      await checkRegistryScreening(await context({ request: req, screening: empty })),
    ).toMatchObject({
      status: 'WARN',
      reason: 'screening_unavailable',
    });
    const strict = await context({
      request: req,
      screening: empty,
      profile: profile('ron-strict-v1'),
    });
    expect(await checkRegistryScreening(strict)).toMatchObject({
      status: 'FAIL',
      reason: 'screening_unavailable',
    });
  });

  it('reports screening_subject_unusable for a subject without letters or digits', async () => {
    const ctx = await context({ screening: sample, request: screeningOf({ subjectName: '--' }) });
    expect(await checkRegistryScreening(ctx)).toMatchObject({
      status: 'WARN',
      reason: 'screening_subject_unusable',
    });
  });

  it('lets UnknownScreeningSourceError through for the HTTP layer to answer 400', async () => {
    const ctx = await context({
      screening: sample,
      request: screeningOf({ subjectName: 'Harriet Homebuyer', sourceIds: ['ofac-sdn'] }),
    });
    await expect(checkRegistryScreening(ctx)).rejects.toBeInstanceOf(UnknownScreeningSourceError);
  });

  it('re-reads the list on forceRefresh and reports a list that can no longer be read', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'screening-check-'));
    const file = path.join(dir, 'watch.csv');
    await writeFile(file, 'id,name\nW-1,Someone Else\n');
    try {
      const lists = await loadScreeningLists(dir);
      await writeFile(file, 'id,name\nW-2,Harriet Homebuyer\n');
      const refresh = screeningOf({ subjectName: 'Harriet Homebuyer', forceRefresh: true });
      const hit = await checkRegistryScreening(
        await context({ request: refresh, screening: lists }),
      );
      expect(hit).toMatchObject({ status: 'FAIL', reason: 'screening_strong_match' });
      await writeFile(file, 'not,a,list\n');
      const broken = await checkRegistryScreening(
        await context({ request: refresh, screening: lists }),
      );
      expect(broken).toMatchObject({ status: 'WARN', reason: 'screening_unavailable' });
      expect(broken.details).toContain('watch.csv: unrecognised layout');
      await rm(file);
      const gone = await checkRegistryScreening(
        await context({ request: refresh, screening: lists }),
      );
      expect(gone.details).toContain('could not be read (ENOENT)');
      expect(gone.details).not.toContain(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
