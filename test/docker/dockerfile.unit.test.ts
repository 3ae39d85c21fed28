import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ignored, parseDockerignore } from './dockerignore-matcher.js';
import {
  commands,
  copyArgs,
  keyValues,
  normalize,
  parseDockerfile,
  words,
  type Instruction,
} from './dockerfile-parser.js';
import {
  buildStage,
  entrypoint,
  final,
  ignoreRules,
  inStage,
  lastIn,
  pkg,
  read,
  root,
  stageEnv,
  stages,
  workdir,
} from './image.js';

/**
 * The Docker image, checked without a Docker engine: the Dockerfile is parsed the way BuildKit's
 * parser reads it (parser directives, line continuations, comment lines inside continuations,
 * JSON exec form with silent fallback to shell form) and its key properties are asserted. The
 * two commands it embeds are run for real in entrypoint.test.ts; .dockerignore is checked in
 * dockerignore.unit.test.ts.
 */

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
    // the service's compiled output, and the verifier workspace's (node_modules links to it)
    const fromBuild = inStage(final, 'COPY').filter((c) => c.flags.from !== undefined);
    expect(fromBuild).toHaveLength(2);
    const copies = fromBuild.map((c) => copyArgs(c));
    const verifyDist = 'packages/verify/dist';
    expect(copies.map((c) => c.sources)).toEqual([
      [path.posix.join(workdir(build), outDir)],
      [path.posix.join(workdir(build), verifyDist)],
    ]);
    expect(copies.map((c) => path.posix.resolve(workdir(final), c.dest))).toEqual([
      path.posix.join(workdir(final), 'dist'),
      path.posix.join(workdir(final), verifyDist),
    ]);
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
    // the App's credentials from the /probot setup land on the volume, which the user can write
    expect(env.ENV_FILE?.startsWith(`${env.DATA_DIR}/`)).toBe(true);
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
