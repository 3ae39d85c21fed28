import fs from 'node:fs';
import { parseVerifierKey, type VerifierKey } from '@verification-receipts/verify/log';
import { CliError, withServices, type CliIo, type Command, type ParsedFlags } from '../context.js';
import { parseCosignerKey } from '../../anchoring/witness/cosignature.js';
import { auditLog, type SeenCheckpoint } from '../log-monitor/audit.js';
import { httpLogSource, LogFetchError, type LogSource } from '../log-monitor/source.js';

const LOG_URL_HINT =
  'check the URL (a service serves its log under /log, e.g. http://localhost:3000/log) and that the service runs';

interface State extends SeenCheckpoint {
  vkey: string;
}

function readState(file: string | undefined): State | undefined {
  if (!file || !fs.existsSync(file)) return undefined;
  try {
    const state = JSON.parse(fs.readFileSync(file, 'utf8')) as State;
    if (typeof state.vkey !== 'string' || !Number.isSafeInteger(state.treeSize)) throw new Error();
    return state;
  } catch {
    throw new CliError(`${file} is not a state file written by \`receipts log verify\``);
  }
}

function verifierKey(text: string, from: string): VerifierKey {
  const key = parseVerifierKey(text.trim());
  if (!key) throw new CliError(`${from} is not an Ed25519 note verifier key`);
  return key;
}

/** The pinned key: --vkey, --vkey-file, or the state file's; else the log's own, not pinned. */
async function trustedKey(
  flags: ParsedFlags,
  state: State | undefined,
  log: LogSource,
): Promise<{ key: VerifierKey; vkey: string; pinned: string | undefined }> {
  const pinned = flags.string('vkey');
  const file = flags.string('vkey-file');
  const given = pinned ?? (file && readFile(file));
  if (given) {
    const key = verifierKey(given, pinned ? '--vkey' : (file as string));
    if (state && state.vkey !== given.trim()) {
      throw new CliError('the pinned key differs from the one in the state file');
    }
    return { key, vkey: given.trim(), pinned: '--vkey' };
  }
  if (state)
    return {
      key: verifierKey(state.vkey, 'the state file'),
      vkey: state.vkey,
      pinned: 'the state file',
    };
  const served = await log.vkey();
  return { key: verifierKey(served, 'the served /vkey'), vkey: served, pinned: undefined };
}

function readFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    throw new CliError(`cannot read ${file}`);
  }
}

/**
 * `receipts log verify`: a monitor. Needs no configuration, store or key of the service: only
 * the served log (c2sp.org/tlog-tiles) and, ideally, its pinned verifier key. Exit 0 consistent,
 * 1 inconsistent, 2 bad usage or a log that cannot be read.
 */
export const logVerifyCommand: Command = (ctx) => monitorLog(ctx.flags, ctx);

/** `log verify` on a log read through `source` (tests give one with a short timeout). */
export async function monitorLog(
  flags: ParsedFlags,
  io: CliIo,
  source: (url: string, apiKey?: string) => LogSource = httpLogSource,
): Promise<number> {
  try {
    const given = flags.string('url');
    if (!given || !/^https?:\/\//.test(given))
      throw new CliError('--url PREFIX (http or https) is required');
    const url = given.replace(/\/+$/, '');
    const stateFile = flags.string('state');
    const state = readState(stateFile);
    const log = source(url, flags.string('api-key'));
    const trust = await trustedKey(flags, state, log);
    const witnesses = flags.list('witness').map((vkey) => {
      const key = parseCosignerKey(vkey.trim());
      if (!key)
        throw new CliError(
          `--witness ${vkey} is not a cosigner vkey (type 0x04 Ed25519 or 0x06 ML-DSA-44)`,
        );
      return key;
    });
    const result = await auditLog(log, trust.key, state, witnesses);
    if (result.ok && stateFile) {
      fs.writeFileSync(
        stateFile,
        `${JSON.stringify({ ...result.checkpoint, vkey: trust.vkey }, null, 2)}\n`,
      );
    }
    report(io, result, trust.pinned, state, flags.boolean('json'));
    return result.ok ? 0 : 1;
  } catch (err) {
    // a log that cannot be read is exit 2 like bad usage, but its words are the URL's, no usage
    if (err instanceof LogFetchError) throw new CliError(err.message, 2, LOG_URL_HINT, false);
    throw err;
  }
}

function report(
  io: CliIo,
  result: Awaited<ReturnType<typeof auditLog>>,
  pinned: string | undefined,
  previous: State | undefined,
  json: boolean,
): void {
  const trust = pinned
    ? `the key pinned by ${pinned}`
    : "the log's own served key (not pinned: pass --vkey or --state to pin it)";
  if (json) {
    io.out(JSON.stringify({ consistent: result.ok, trust, ...result }));
    return;
  }
  if (!result.ok) {
    io.out(`FAIL  ${result.reason}`);
    io.out('log INCONSISTENT');
    return;
  }
  const c = result.checkpoint;
  io.out(`PASS  checkpoint of ${c.origin} at size ${c.treeSize} signed by ${trust}`);
  io.out(
    `PASS  ${c.treeSize} entries and ${result.tiles} tiles read; every tile matches the entries`,
  );
  io.out(`PASS  the tree's root is the checkpoint's: ${rootText(c.rootHash)}`);
  if (result.cosigners.length > 0) io.out(`PASS  cosigned by ${result.cosigners.join(', ')}`);
  if (previous)
    io.out(`PASS  extends size ${previous.treeSize} seen before (same root at that size)`);
  io.out('log consistent');
}

/**
 * A root hash as the checkpoint writes it (C2SP signed-note body: standard base64), with its hex
 * in parentheses; from `sha256:<hex>` (the store's wire form) or base64 (a served checkpoint).
 */
export function rootText(root: string): string {
  const bytes = root.startsWith('sha256:')
    ? Buffer.from(root.slice('sha256:'.length), 'hex')
    : Buffer.from(root, 'base64');
  return `${bytes.toString('base64')} (hex ${bytes.toString('hex')})`;
}

/** `receipts log info [--url PREFIX]`: the log's identity, from the store or a served log. */
export const logInfoCommand: Command = async (ctx) => {
  const prefix = ctx.flags.string('url');
  if (prefix) {
    const url = prefix.replace(/\/+$/, '');
    const source = httpLogSource(url);
    const read = async () => ({ vkey: await source.vkey(), checkpoint: await source.checkpoint() });
    const { vkey, checkpoint } = await read().catch((err: unknown) => {
      if (!(err instanceof LogFetchError)) throw err;
      throw new CliError(err.message, 1, LOG_URL_HINT);
    });
    const [origin, size, root] = checkpoint.split('\n');
    printInfo(ctx, { origin, vkey, treeSize: size, rootHash: root, prefix: url });
    return;
  }
  const info = await withServices(
    ctx,
    async (services) => {
      await services.registerSigner();
      const latest = await services.anchoring.checkpoint().catch(() => undefined);
      return {
        origin: services.anchoring.origin,
        vkey: services.anchoring.verifierKey,
        treeSize: latest ? String(latest.treeSize) : '0 (nothing anchored yet)',
        rootHash: latest?.rootHash,
        prefix: `${ctx.config.serviceUrl}/log`,
      };
    },
    { loadScreening: false },
  );
  if (!info.vkey)
    throw new CliError('no signing key: the log has no verifier key (SIGNING_DISABLED)', 1);
  printInfo(ctx, info);
};

function printInfo(io: CliIo, info: Record<string, string | undefined>): void {
  io.out(`origin     ${info.origin ?? ''}`);
  io.out(`vkey       ${info.vkey ?? ''}`);
  io.out(`tree size  ${info.treeSize ?? ''}`);
  io.out(`root hash  ${info.rootHash ? rootText(info.rootHash) : 'none yet'}`);
  io.out(`checkpoint ${info.prefix ?? ''}/checkpoint`);
  io.out(`tiles      under ${info.prefix ?? ''}/tile/ (the c2sp.org/tlog-tiles layout)`);
}
