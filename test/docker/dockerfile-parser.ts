import path from 'node:path';

/**
 * A small Dockerfile parser that reads a Dockerfile the way BuildKit's frontend/dockerfile/parser
 * does: parser directives, line continuations, comment lines inside continuations, JSON exec form
 * with silent fallback to shell form.
 */

export interface Instruction {
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

export interface Stage {
  base: string;
  name: string | undefined;
  instructions: Instruction[];
}

export function parseJsonArray(text: string): string[] | undefined {
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

/** The escape character the parser directives at the top of the file set (default `\`). */
function escapeOf(lines: string[]): string {
  let escape = '\\';
  for (const line of lines) {
    const directive = /^#\s*([a-zA-Z][a-zA-Z0-9]*)\s*=\s*(.+?)\s*$/.exec(line);
    if (!directive) break;
    if (directive[1]?.toLowerCase() === 'escape') escape = directive[2] ?? escape;
  }
  return escape;
}

/** Instructions of a Dockerfile, as BuildKit's frontend/dockerfile/parser splits them. */
export function parseDockerfile(text: string): Instruction[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const escape = escapeOf(lines);
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

export function stagesOf(instructions: Instruction[]): Stage[] {
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
export function words(text: string): string[] {
  return [...text.matchAll(/(?:"[^"]*"|[^\s"])+/g)].map((m) => m[0].replaceAll('"', ''));
}

/** `ENV a=b c=d` / `LABEL a="b c"` (and legacy `ENV a b`) as a map. */
export function keyValues(instruction: Instruction): Record<string, string> {
  const parts = words(instruction.args);
  if (parts[0] !== undefined && !parts[0].includes('=')) {
    return { [parts[0]]: instruction.args.trim().slice(parts[0].length).trim() };
  }
  return Object.fromEntries(
    parts.map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)]),
  );
}

/** Sources and destination of a COPY/ADD, in either form. */
export function copyArgs(instruction: Instruction): { sources: string[]; dest: string } {
  const parts = instruction.json ?? words(instruction.args);
  return { sources: parts.slice(0, -1), dest: parts.at(-1) ?? '' };
}

/** The shell commands of a RUN (split on && || ; and newlines). */
export function commands(instruction: Instruction): string[][] {
  const text = instruction.json ? instruction.json.join(' ') : instruction.args;
  return text
    .split(/&&|\|\||;|\n/)
    .map((c) => words(c))
    .filter((c) => c.length > 0);
}

/** A build-context path without `./` in front or `/` at the end. */
export const normalize = (p: string) => path.posix.normalize(p).replace(/^\.\/|\/$/g, '');
