import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The Docker image, checked without a Docker engine: the Dockerfile is parsed the way BuildKit's
 * parser reads it (parser directives, line continuations, comment lines inside continuations,
 * JSON exec form with silent fallback to shell form), its key properties are asserted, and the
 * two commands it embeds - the entrypoint script and the HEALTHCHECK - are run for real.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

// ---- a small Dockerfile parser ------------------------------------------------------------

interface Instruction {
  /** Upper-cased keyword: FROM, RUN, COPY, ... */
  keyword: string;
  /** Leading `--name=value` flags (`--name` alone: value ''). */
  flags: Record<string, string>;
  /** The rest, after the flags, with continuations joined. */
  args: string;
  /** The arguments as a JSON string array when they are one (exec form), else undefined. */
  json: string[] | undefined;
  /** 1-based line where the instruction starts. */
  line: number;
}

interface Stage {
  base: string;
  name: string | undefined;
  instructions: Instruction[];
}

function parseJsonArray(text: string): string[] | undefined {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('[')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  } catch {
    // not JSON: Docker silently treats it as shell form
  }
  return undefined;
}

function toInstruction(text: string, line: number): Instruction {
  const match = /^(\S+)\s*([\s\S]*)$/.exec(text.trim());
  if (!match) throw new Error(`line ${line}: cannot parse ${JSON.stringify(text)}`);
  let rest = match[2] ?? '';
  const flags: Record<string, string> = {};
  for (let flag = /^--([\w-]+)(?:=(\S*))?\s*/.exec(rest); flag;) {
    flags[flag[1] ?? ''] = flag[2] ?? '';
    rest = rest.slice(flag[0].length);
    flag = /^--([\w-]+)(?:=(\S*))?\s*/.exec(rest);
  }
  return {
    keyword: (match[1] ?? '').toUpperCase(),
    flags,
    args: rest,
    json: parseJsonArray(rest),
    line,
  };
}

/** Instructions of a Dockerfile, as BuildKit's frontend/dockerfile/parser splits them. */
function parseDockerfile(text: string): Instruction[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let escape = '\\';
  for (const line of lines) {
    const directive = /^#\s*([a-zA-Z][a-zA-Z0-9]*)\s*=\s*(.+?)\s*$/.exec(line);
    if (!directive) break;
    if (directive[1]?.toLowerCase() === 'escape') escape = directive[2] ?? escape;
  }
  const continuation = new RegExp(`${escape === '`' ? '`' : '\\\\'}[ \\t]*$`);
  const isComment = (line: string) => /^\s*#/.test(line);
  const instructions: Instruction[] = [];
  for (let i = 0; i < lines.length; i++) {
    const first = (lines[i] ?? '').trimStart();
    if (first === '' || isComment(first)) continue;
    const start = i + 1;
    let more = continuation.test(first);
    let text = first.replace(continuation, '');
    while (more && i + 1 < lines.length) {
      const next = lines[++i] ?? '';
      // comment and empty lines inside a continuation are dropped; leading whitespace is kept
      if (isComment(next) || next.trim() === '') continue;
      more = continuation.test(next);
      text += next.replace(continuation, '');
    }
    if (text.trim() !== '') instructions.push(toInstruction(text, start));
  }
  return instructions;
}

function stagesOf(instructions: Instruction[]): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [base = '', as, name] = instruction.args.trim().split(/\s+/);
      stages.push({
        base,
        name: as?.toUpperCase() === 'AS' ? name : undefined,
        instructions: [],
      });
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return stages;
}

/** Whitespace-separated words; double-quoted parts kept together, quotes removed. */
function words(text: string): string[] {
  return [...text.matchAll(/(?:"[^"]*"|[^\s"])+/g)].map((m) => m[0].replaceAll('"', ''));
}

/** `ENV a=b c=d` / `LABEL a="b c"` (and legacy `ENV a b`) as a map. */
function keyValues(instruction: Instruction): Record<string, string> {
  const parts = words(instruction.args);
  if (parts[0] !== undefined && !parts[0].includes('=')) {
    return { [parts[0]]: instruction.args.trim().slice(parts[0].length).trim() };
  }
  return Object.fromEntries(
    parts.map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)]),
  );
}

/** Sources and destination of a COPY/ADD, in either form. */
function copyArgs(instruction: Instruction): { sources: string[]; dest: string } {
  const parts = instruction.json ?? words(instruction.args);
  return { sources: parts.slice(0, -1), dest: parts.at(-1) ?? '' };
}

/** The shell commands of a RUN (split on && || ; and newlines). */
function commands(instruction: Instruction): string[][] {
  const text = instruction.json ? instruction.json.join(' ') : instruction.args;
  return text
    .split(/&&|\|\||;|\n/)
    .map((c) => words(c))
    .filter((c) => c.length > 0);
}

const normalize = (p: string) => path.posix.normalize(p).replace(/^\.\/|\/$/g, '');

// ---- a small .dockerignore matcher (moby/patternmatcher semantics) -----------------------

interface IgnoreRule {
  pattern: string;
  negate: boolean;
  regex: RegExp;
}

function globToRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] ?? '';
    if (c === '*' && pattern[i + 1] === '*') {
      i++;
      if (pattern[i + 1] === '/') {
        i++;
        re += '(?:.*/)?';
      } else {
        re += '.*';
      }
    } else if (c === '*') {
      re += '[^/]*';
    } else if (c === '?') {
      re += '[^/]';
    } else {
      re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${re}$`);
}

function parseDockerignore(text: string): IgnoreRule[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const negate = line.startsWith('!');
      const pattern = path.posix
        .normalize((negate ? line.slice(1) : line).trim().replace(/^\/+/, ''))
        .replace(/\/$/, '');
      return { pattern, negate, regex: globToRegExp(pattern) };
    });
}

/** Whether the build context leaves `file` out: the last matching rule wins. */
function ignored(rules: IgnoreRule[], file: string): boolean {
  const parts = normalize(file).split('/');
  let result = false;
  for (const rule of rules) {
    const hit = parts.some((_, i) => rule.regex.test(parts.slice(0, i + 1).join('/')));
    if (hit) result = !rule.negate;
  }
  return result;
}

// ---- the repository's files ---------------------------------------------------------------

const instructions = parseDockerfile(read('Dockerfile'));
const stages = stagesOf(instructions);
const final = stages.at(-1) as Stage;
const ignoreRules = parseDockerignore(read('.dockerignore'));
const pkg = JSON.parse(read('package.json')) as {
  license: string;
  bin: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

const inStage = (stage: Stage, keyword: string) =>
  stage.instructions.filter((i) => i.keyword === keyword);
const lastIn = (stage: Stage, keyword: string) => inStage(stage, keyword).at(-1);
const stageEnv = (stage: Stage) => Object.assign({}, ...inStage(stage, 'ENV').map(keyValues));
const workdir = (stage: Stage) => lastIn(stage, 'WORKDIR')?.args.trim() ?? '/';

/** The stage the final one copies dist/ from. */
const buildStage = (): Stage => {
  const from = inStage(final, 'COPY').find((c) => c.flags.from !== undefined)?.flags.from;
  const stage = stages.find((s) => s.name === from) ?? stages[Number(from)];
  if (!stage || stage === final) throw new Error(`no build stage named ${from}`);
  return stage;
};

function entrypoint(): { script: string; name: string } {
  const json = lastIn(final, 'ENTRYPOINT')?.json;
  expect(json, 'ENTRYPOINT must be valid JSON (else Docker runs it as shell form)').toBeDefined();
  const [shell, dashC, script, name] = json ?? [];
  expect([shell, dashC]).toEqual(['/bin/sh', '-c']);
  expect(json).toHaveLength(4);
  return { script: script ?? '', name: name ?? '' };
}

const tempDirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'receipts-docker-'));
  tempDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

// ---- tests ------------------------------------------------------------------------------

describe('the Dockerfile parser', () => {
  it('joins continuations, drops comment lines inside them and reads JSON or shell form', () => {
    const parsed = parseDockerfile(
      [
        '# escape=\\',
        'FROM node:24-slim AS build',
        'RUN a \\',
        '# a comment inside the continuation',
        '',
        '  && b',
        'COPY --from=build --chown=1:1 /app/dist ./dist',
        'CMD ["node", \\',
        '  "x.js"]',
        'ENTRYPOINT ["broken" "json"]',
      ].join('\n'),
    );
    expect(parsed.map((i) => i.keyword)).toEqual(['FROM', 'RUN', 'COPY', 'CMD', 'ENTRYPOINT']);
    expect(parsed[1]?.args).toBe('a   && b');
    expect(parsed[2]?.flags).toEqual({ from: 'build', chown: '1:1' });
    expect(parsed[2]?.args).toBe('/app/dist ./dist');
    expect(parsed[3]?.json).toEqual(['node', 'x.js']);
    expect(parsed[4]?.json).toBeUndefined();
  });

  it('matches .dockerignore patterns like Docker', () => {
    const rules = parseDockerignore('node_modules\n**/*.log\n/dist/\n*.md\n!README.md\n');
    expect(ignored(rules, 'node_modules/x/index.js')).toBe(true);
    expect(ignored(rules, 'src/node_modules/x')).toBe(false);
    expect(ignored(rules, 'a/b/c.log')).toBe(true);
    expect(ignored(rules, 'dist/server.js')).toBe(true);
    expect(ignored(rules, 'CHANGES.md')).toBe(true);
    expect(ignored(rules, 'README.md')).toBe(false);
    expect(ignored(rules, 'docs/a.md')).toBe(false);
  });
});

describe('Dockerfile', () => {
  it('is multi-stage, every stage on the same Node LTS slim image', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const image =
      /^(?:docker\.io\/)?(?:library\/)?node:(\d+)(?:\.\d+){0,2}-(?:[a-z]+-)?slim(?:@sha256:[0-9a-f]{64})?$/;
    const major = Number(image.exec(final.base)?.[1]);
    expect(final.base, 'final base: node:<major>[-<debian>]-slim').toMatch(image);
    expect(major % 2, 'Node LTS lines have even majors').toBe(0);
    expect(major).toBeGreaterThanOrEqual(22);
    expect(buildStage().base).toBe(final.base);
  });

  it('builds in the build stage: npm ci with dev dependencies, then npm run build', () => {
    const runs = inStage(buildStage(), 'RUN').flatMap(commands);
    const ci = runs.findIndex((c) => c[0] === 'npm' && c[1] === 'ci');
    const build = runs.findIndex((c) => c.join(' ') === 'npm run build');
    expect(ci).toBeGreaterThanOrEqual(0);
    expect(runs[ci]).not.toContain('--omit=dev');
    expect(build).toBeGreaterThan(ci);
  });

  it('installs production dependencies only in the final stage, without running scripts', () => {
    const ci = inStage(final, 'RUN')
      .flatMap(commands)
      .filter((c) => c[0] === 'npm' && c[1] === 'ci');
    expect(ci).toHaveLength(1);
    expect(ci[0]).toContain('--omit=dev');
    // the package's "prepare" script runs tsc, a dev dependency
    expect(ci[0]).toContain('--ignore-scripts');
  });

  it('takes dist/ from the build stage, never src/ or node_modules from the context', () => {
    expect(inStage(final, 'ADD')).toEqual([]);
    for (const stage of stages) {
      for (const copy of inStage(stage, 'COPY').filter((c) => c.flags.from === undefined)) {
        for (const source of copyArgs(copy).sources.map(normalize)) {
          expect(source, `line ${copy.line} copies the whole context`).not.toMatch(/^(\.|\*)$/);
          expect(source).not.toMatch(/(^|\/)node_modules(\/|$)/);
          expect(source).not.toMatch(/^dist(\/|$)/);
          if (stage === final) expect(source).not.toMatch(/^src(\/|$)/);
        }
      }
    }
    const build = buildStage();
    const outDir = (
      JSON.parse(read('tsconfig.build.json')) as { compilerOptions: { outDir: string } }
    ).compilerOptions.outDir;
    const fromBuild = inStage(final, 'COPY').filter((c) => c.flags.from !== undefined);
    expect(fromBuild).toHaveLength(1);
    const { sources, dest } = copyArgs(fromBuild[0] as Instruction);
    expect(sources).toEqual([path.posix.join(workdir(build), outDir)]);
    expect(path.posix.resolve(workdir(final), dest)).toBe(path.posix.join(workdir(final), 'dist'));
  });

  it('runs as the non-root node user, by numeric uid', () => {
    const user = lastIn(final, 'USER')?.args.trim() ?? '';
    expect(user).toMatch(/^\d+(:\d+)?$/); // Kubernetes runAsNonRoot needs a numeric uid
    expect(user.split(':')[0]).toBe('1000');
    // nothing after it switches back
    const after = final.instructions.slice(final.instructions.indexOf(lastIn(final, 'USER')!));
    expect(after.filter((i) => i.keyword === 'RUN')).toEqual([]);
  });

  it('keeps the data directory on a volume owned by that user', () => {
    const env = stageEnv(final);
    expect(env.NODE_ENV).toBe('production');
    expect(env.DATA_DIR).toBe('/data');
    const volume = lastIn(final, 'VOLUME') as Instruction;
    expect(volume.json ?? words(volume.args)).toContain(env.DATA_DIR);
    const uid = (lastIn(final, 'USER')?.args ?? '').split(':')[0] ?? '';
    const run = inStage(final, 'RUN').flatMap(commands);
    expect(run).toContainEqual(['mkdir', '-p', env.DATA_DIR]);
    expect(run.find((c) => c[0] === 'chown' && c.at(-1) === env.DATA_DIR)?.[1]).toMatch(
      new RegExp(`^(${uid}|node)(:|$)`),
    );
    // the RUN that prepares it comes before VOLUME (changes after VOLUME are discarded)
    const prepare = inStage(final, 'RUN').find((r) => commands(r).some((c) => c[0] === 'chown'));
    expect(prepare?.line).toBeLessThan(volume.line);
  });

  it('exposes port 3000', () => {
    const ports = inStage(final, 'EXPOSE').flatMap((e) => words(e.args));
    expect(ports.map((p) => p.replace(/\/tcp$/, ''))).toContain('3000');
  });

  it('has OCI labels', () => {
    const labels = Object.assign({}, ...inStage(final, 'LABEL').map(keyValues)) as Record<
      string,
      string
    >;
    expect(labels['org.opencontainers.image.title']).toBeTruthy();
    expect(labels['org.opencontainers.image.licenses']).toBe(pkg.license);
    expect(labels['org.opencontainers.image.version']).toBeTruthy();
    expect(labels['org.opencontainers.image.base.name']).toMatch(new RegExp(`${final.base}$`));
  });

  it('copies only files that exist and that .dockerignore keeps in the context', () => {
    const sources = stages.flatMap((stage) =>
      inStage(stage, 'COPY')
        .filter((c) => c.flags.from === undefined)
        .flatMap((c) => copyArgs(c).sources.map(normalize)),
    );
    expect(sources).toEqual(
      expect.arrayContaining([
        'package.json',
        'package-lock.json',
        'tsconfig.json',
        'tsconfig.build.json',
        'src',
      ]),
    );
    for (const source of sources) {
      expect(fs.existsSync(path.join(root, source)), `${source} exists`).toBe(true);
      expect(ignored(ignoreRules, source), `${source} is in the build context`).toBe(false);
    }
    for (const file of fs.readdirSync(path.join(root, 'src'), { recursive: true })) {
      expect(ignored(ignoreRules, path.posix.join('src', String(file)))).toBe(false);
    }
    // tsconfig.build.json needs only what the build stage copies
    const tsconfig = JSON.parse(read('tsconfig.build.json')) as {
      extends?: string;
      include: string[];
    };
    if (tsconfig.extends) expect(sources).toContain(normalize(tsconfig.extends));
    for (const include of tsconfig.include) expect(sources).toContain(normalize(include));
  });

  it('starts compiled entry points that exist in src/', () => {
    const cmd = lastIn(final, 'CMD')?.json;
    expect(cmd).toEqual(['node', 'dist/server.js']);
    for (const entry of ['dist/server.js', ...Object.values(pkg.bin)]) {
      const source = entry.replace(/^dist\//, 'src/').replace(/\.js$/, '.ts');
      expect(fs.existsSync(path.join(root, source)), `${source} for ${entry}`).toBe(true);
    }
    expect(entrypoint().script).toContain('node dist/cli/main.js migrate');
  });

  it('needs no dev dependency at run time (src/ imports production dependencies only)', () => {
    const imported = new Set<string>();
    const visit = (node: ts.Node) => {
      if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) {
        imported.add((node.moduleSpecifier as ts.StringLiteral).text);
      } else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier) {
        imported.add((node.moduleSpecifier as ts.StringLiteral).text);
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        imported.add(node.arguments[0].text);
      }
      ts.forEachChild(node, visit);
    };
    for (const file of fs.readdirSync(path.join(root, 'src'), { recursive: true })) {
      if (!String(file).endsWith('.ts')) continue;
      const full = path.join(root, 'src', String(file));
      visit(ts.createSourceFile(full, fs.readFileSync(full, 'utf8'), ts.ScriptTarget.Latest));
    }
    const packages = [...imported]
      .filter((s) => !s.startsWith('.') && !s.startsWith('node:') && !builtinModules.includes(s))
      .map((s) =>
        s
          .split('/')
          .slice(0, s.startsWith('@') ? 2 : 1)
          .join('/'),
      );
    expect(packages.length).toBeGreaterThan(0);
    for (const name of packages) expect(Object.keys(pkg.dependencies), name).toContain(name);
  });
});

describe('.dockerignore', () => {
  it.each(['node_modules', 'dist', 'data', '.git', '.env', 'coverage', 'npm-debug.log'])(
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

describe('HEALTHCHECK', () => {
  const healthcheck = () => lastIn(final, 'HEALTHCHECK') as Instruction;

  it('probes /readyz with Node itself, with interval, timeout and start period', () => {
    const check = healthcheck();
    expect(Object.keys(check.flags)).toEqual(
      expect.arrayContaining(['interval', 'timeout', 'start-period']),
    );
    expect(check.args).toMatch(/^CMD\s/);
    expect(check.args).toContain('/readyz');
    expect(check.args).not.toMatch(/\b(curl|wget)\b/); // not in slim images
  });

  /** Runs the HEALTHCHECK command (exec or shell form) with PORT set; resolves its exit code. */
  async function runHealthcheck(port: number): Promise<number | null> {
    const cmd = healthcheck().args.replace(/^CMD\s+/, '');
    const argv = parseJsonArray(cmd) ?? ['/bin/sh', '-c', cmd];
    if (argv[0] === 'node') argv[0] = process.execPath;
    const child = spawn(argv[0] ?? '', argv.slice(1), {
      env: { PATH: process.env.PATH, PORT: String(port) },
      stdio: 'ignore',
    });
    return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  }

  it('passes while /readyz answers 200 and fails on 503 or when nothing listens', async () => {
    let status = 200;
    const paths: string[] = [];
    const server = http.createServer((req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(status).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      expect(await runHealthcheck(port)).toBe(0);
      status = 503;
      expect(await runHealthcheck(port)).toBe(1);
      expect(paths).toEqual(['/readyz', '/readyz']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await runHealthcheck(port)).toBe(1);
  });
});

const hasFlock = spawnSync('sh', ['-c', 'command -v flock'], { stdio: 'ignore' }).status === 0;

describe.runIf(process.platform === 'linux' && hasFlock)('the entrypoint script', () => {
  /**
   * A stand-in for /app: dist/cli/main.js and dist/server.js that only log what they were run
   * with (and the state of the store's lock file) to $LOG.
   */
  function fakeApp() {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'dist', 'cli'), { recursive: true });
    const logLine = (what: string) =>
      `require('node:fs').appendFileSync(process.env.LOG, ${what} + '\\n');`;
    fs.writeFileSync(
      path.join(dir, 'dist', 'cli', 'main.js'),
      [
        `const lock = require('node:fs').existsSync(process.env.DATA_DIR + '/receipts.lock');`,
        logLine(`'migrate ' + process.argv.slice(2).join(' ') + ' lock=' + lock`),
        `const done = () => { ${logLine(`'migrate done'`)} process.exit(Number(process.env.FAKE_MIGRATE_EXIT || 0)); };`,
        `setTimeout(done, Number(process.env.FAKE_MIGRATE_MS || 0));`,
      ].join('\n'),
    );
    fs.writeFileSync(path.join(dir, 'dist', 'server.js'), logLine(`'server pid=' + process.pid`));
    const log = path.join(dir, 'log');
    const dataDir = path.join(dir, 'data');
    const env = (extra: Record<string, string> = {}) => ({
      PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      DATA_DIR: dataDir,
      LOG: log,
      ...extra,
    });
    const logged = () =>
      fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : [];
    return { dir, dataDir, env, logged };
  }

  const defaultCmd = () => lastIn(final, 'CMD')?.json ?? [];

  function run(
    app: ReturnType<typeof fakeApp>,
    argv: string[],
    env: Record<string, string> = {},
  ): SpawnSyncReturns<string> {
    const { script, name } = entrypoint();
    return spawnSync('/bin/sh', ['-c', script, name, ...argv], {
      cwd: app.dir,
      env: app.env(env),
      encoding: 'utf8',
      timeout: 20_000,
    });
  }

  it('runs migrate, then execs the server (which becomes the process the signals reach)', () => {
    const app = fakeApp();
    const result = run(app, defaultCmd());
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(app.logged()).toEqual([
      'migrate migrate lock=false',
      'migrate done',
      `server pid=${result.pid}`,
    ]);
    expect(fs.existsSync(path.join(app.dataDir, 'receipts.container.lock'))).toBe(true);
  });

  it('does not start the server when migrate fails, and exits with its code', () => {
    const app = fakeApp();
    const result = run(app, defaultCmd(), { FAKE_MIGRATE_EXIT: '3' });
    expect(result.status).toBe(3);
    expect(app.logged()).toEqual(['migrate migrate lock=false', 'migrate done']);
  });

  it('removes the stale store lock a killed pid-1 server left behind', () => {
    const app = fakeApp();
    fs.mkdirSync(app.dataDir);
    fs.writeFileSync(path.join(app.dataDir, 'receipts.lock'), '1');
    const result = run(app, defaultCmd());
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/removing the stale .*receipts\.lock/);
    expect(app.logged()[0]).toBe('migrate migrate lock=false');
  });

  it('refuses to start while another container holds the data directory', async () => {
    const app = fakeApp();
    const { script, name } = entrypoint();
    const holder = spawn(
      '/bin/sh',
      ['-c', script, name, 'node', '-e', 'process.stdout.write("up"); setInterval(() => {}, 1000)'],
      // its own process group, so that everything it started can be killed
      { cwd: app.dir, env: app.env(), stdio: ['ignore', 'pipe', 'inherit'], detached: true },
    );
    const exited = new Promise((resolve) => holder.on('exit', resolve));
    try {
      await Promise.race([new Promise((resolve) => holder.stdout.once('data', resolve)), exited]);
      expect(holder.exitCode, 'the first container is up').toBeNull();
      fs.writeFileSync(path.join(app.dataDir, 'receipts.lock'), '1'); // the live server's
      const second = run(app, defaultCmd());
      expect(second.status).toBe(3);
      expect(second.stderr).toMatch(/in use by another container/);
      expect(app.logged()).toEqual([]);
      expect(fs.readFileSync(path.join(app.dataDir, 'receipts.lock'), 'utf8')).toBe('1');
    } finally {
      if (holder.exitCode === null) process.kill(-(holder.pid ?? 0), 'SIGKILL');
      await exited; // SIGKILL: the kernel releases the flock even then
    }
    expect(run(app, defaultCmd()).status).toBe(0);
  });

  it('stops after migrate, without starting the server, on SIGTERM during migrate', async () => {
    const app = fakeApp();
    const { script, name } = entrypoint();
    const child = spawn('/bin/sh', ['-c', script, name, ...defaultCmd()], {
      cwd: app.dir,
      env: app.env({ FAKE_MIGRATE_MS: '1500' }),
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    for (let i = 0; i < 100 && app.logged().length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(app.logged()).toEqual(['migrate migrate lock=false', 'migrate done']);
  });

  it('runs any other command as given, without migrate', () => {
    const app = fakeApp();
    const result = run(app, [
      'node',
      '-e',
      `require('node:fs').appendFileSync(process.env.LOG, process.argv.slice(1).join('|'))`,
      'keys',
      'create',
      '--name',
      'two words',
    ]);
    expect(result.status).toBe(0);
    expect(app.logged()).toEqual(['keys|create|--name|two words']);
  });

  it('leaves DATA_DIR alone with PostgreSQL (DATABASE_URL set)', () => {
    const app = fakeApp();
    const result = run(app, defaultCmd(), { DATABASE_URL: 'postgres://db/receipts' });
    expect(result.status).toBe(0);
    expect(app.logged()).toHaveLength(3);
    expect(fs.existsSync(app.dataDir)).toBe(false);
  });

  it.runIf(process.getuid?.() !== 0)('explains an unwritable DATA_DIR', () => {
    const app = fakeApp();
    fs.mkdirSync(app.dataDir, { mode: 0o500 });
    const result = run(app, defaultCmd());
    expect(result.status).toBe(3);
    expect(result.stderr).toMatch(/is not writable by uid/);
  });
});
