import { parseArgs } from 'node:util';
import type { CiPolicy } from '../ci-policy.js';

/** The command line of `receipt-verify`, parsed; a Usage error is exit 2 with the usage text. */
export class Usage extends Error {
  override name = 'Usage';
}

export interface Options {
  file: string;
  tlogProof?: string;
  jwks?: string;
  keys: string[];
  online?: string;
  logPolicy?: string;
  logOrigin?: string;
  logVkey?: string;
  artifact?: string;
  tsaCerts: string[];
  /** --pdf-cert files: the PDF signing certificates pinned (PEM or DER). */
  pdfCerts: string[];
  allowUnsignedPdf: boolean;
  /** --require-pq: the receipt's ML-DSA-44 signature must verify under a pinned key. */
  requirePq: boolean;
  maxStatusAge?: number;
  /** A saved signed status document (GET /status/{receiptHash}) to check. */
  status?: string;
  /** Accept an unknown current status: an authentic ALLOW receipt is exit 0 without one. */
  offline: boolean;
  insecureIgnoreTrust: boolean;
  /** The CI identity policy (ci-policy.ts); every field optional. */
  ci: CiPolicy;
  json: boolean;
  help: boolean;
}

export const OPTIONS = {
  jwks: { type: 'string' },
  key: { type: 'string', multiple: true },
  online: { type: 'string' },
  'log-policy': { type: 'string' },
  'log-origin': { type: 'string' },
  'log-vkey': { type: 'string' },
  'tlog-proof': { type: 'string' },
  artifact: { type: 'string' },
  'tsa-cert': { type: 'string', multiple: true },
  'pdf-cert': { type: 'string', multiple: true },
  'allow-unsigned-pdf': { type: 'boolean' },
  'require-pq': { type: 'boolean' },
  'max-status-age': { type: 'string' },
  status: { type: 'string' },
  offline: { type: 'boolean' },
  'insecure-ignore-trust': { type: 'boolean' },
  repo: { type: 'string' },
  sha: { type: 'string' },
  'signer-workflow': { type: 'string' },
  'deny-self-hosted-runners': { type: 'boolean' },
  profile: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The closest option name to a misspelt one (edit distance at most 3), for the error line. */
function nearest(name: string): string | undefined {
  const distance = (a: string, b: string): number => {
    const row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i += 1) {
      let prev = row[0] as number;
      row[0] = i;
      for (let j = 1; j <= b.length; j += 1) {
        const next = Math.min(
          (row[j] as number) + 1,
          (row[j - 1] as number) + 1,
          prev + (a[i - 1] === b[j - 1] ? 0 : 1),
        );
        prev = row[j] as number;
        row[j] = next;
      }
    }
    return row[b.length] as number;
  };
  const ranked = Object.keys(OPTIONS)
    .map((o) => ({ o, d: distance(name, o) }))
    .sort((x, y) => x.d - y.d);
  return ranked[0] && ranked[0].d <= 3 ? ranked[0].o : undefined;
}

function parse(args: string[]) {
  try {
    return parseArgs({ args, allowPositionals: true, strict: true, options: OPTIONS });
  } catch (err) {
    const unknown = /Unknown option '--?([^']+)'/.exec((err as Error).message)?.[1];
    if (unknown) {
      const near = nearest(unknown);
      throw new Usage(`unknown option --${unknown}${near ? `: did you mean --${near}?` : ''}`);
    }
    throw new Usage((err as Error).message);
  }
}

function statusAge(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,9}$/.test(text)) throw new Usage('--max-status-age takes a whole number of seconds');
  return Number(text);
}

/** The CI policy options, each checked for its form (a bad one is a usage error, exit 2). */
function ciPolicyOf(v: ReturnType<typeof parse>['values']): CiPolicy {
  const policy: CiPolicy = {};
  if (v.repo !== undefined) {
    if (!/^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9._-]{1,100}$/.test(v.repo))
      throw new Usage('--repo takes owner/name');
    policy.repo = v.repo;
  }
  if (v.sha !== undefined) {
    if (!/^[0-9a-fA-F]{40}([0-9a-fA-F]{24})?$/.test(v.sha))
      throw new Usage('--sha takes a full commit id (40 or 64 hex digits)');
    policy.sha = v.sha;
  }
  const workflow = v['signer-workflow'];
  if (workflow !== undefined) {
    if (!/^\.github\/workflows\/[^/@\s]{1,200}\.ya?ml$/.test(workflow))
      throw new Usage('--signer-workflow takes .github/workflows/<file>.yml');
    policy.signerWorkflow = workflow;
  }
  if (v['deny-self-hosted-runners']) policy.denySelfHostedRunners = true;
  if (v.profile !== undefined) {
    if (!/^[a-z0-9-]{1,64}$/.test(v.profile)) throw new Usage('--profile takes a profile id');
    policy.profile = v.profile;
  }
  return policy;
}

/** --online fetches the current status: a saved one or an unknown one next to it is a mistake. */
function statusConflicts(v: ReturnType<typeof parse>['values']): void {
  if (v.online !== undefined && v.offline)
    throw new Usage('--offline accepts an unknown status; --online checks it: give one of them');
  if (v.online !== undefined && v.status !== undefined)
    throw new Usage(
      '--online fetches the current status: give --status FILE or --online, not both',
    );
}

export function parseOptions(args: string[]): Options {
  const { values: v, positionals } = parse(args);
  if (v.help)
    return {
      file: '',
      keys: [],
      tsaCerts: [],
      pdfCerts: [],
      allowUnsignedPdf: false,
      requirePq: false,
      offline: false,
      insecureIgnoreTrust: false,
      ci: {},
      json: false,
      help: true,
    };
  const proofs = positionals.filter((p) => p.endsWith('.tlog-proof'));
  const files = positionals.filter((p) => !p.endsWith('.tlog-proof'));
  if (files.length !== 1)
    throw new Usage('give exactly one FILE: a PDF receipt or a receipt bundle');
  statusConflicts(v);
  const tlogProof = v['tlog-proof'] ?? proofs[0];
  if (proofs.length > 1 || (v['tlog-proof'] && proofs.length > 0))
    throw new Usage('give at most one .tlog-proof file');
  const defined = <T>(key: string, value: T | undefined) =>
    value === undefined ? {} : { [key]: value };
  return {
    file: files[0] as string,
    ...defined('tlogProof', tlogProof),
    ...defined('jwks', v.jwks),
    keys: v.key ?? [],
    ...defined('online', v.online?.replace(/\/+$/, '')),
    ...defined('logPolicy', v['log-policy']),
    ...defined('logOrigin', v['log-origin']),
    ...defined('logVkey', v['log-vkey']),
    ...defined('artifact', v.artifact),
    tsaCerts: v['tsa-cert'] ?? [],
    pdfCerts: v['pdf-cert'] ?? [],
    allowUnsignedPdf: v['allow-unsigned-pdf'] ?? false,
    requirePq: v['require-pq'] ?? false,
    ...defined('maxStatusAge', statusAge(v['max-status-age'])),
    ...defined('status', v.status),
    offline: v.offline ?? false,
    insecureIgnoreTrust: v['insecure-ignore-trust'] ?? false,
    ci: ciPolicyOf(v),
    json: v.json ?? false,
    help: false,
  };
}
