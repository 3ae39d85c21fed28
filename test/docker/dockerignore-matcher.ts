import path from 'node:path';
import { normalize } from './dockerfile-parser.js';

/** A small .dockerignore matcher (moby/patternmatcher semantics). */

export interface IgnoreRule {
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

export function parseDockerignore(text: string): IgnoreRule[] {
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
export function ignored(rules: IgnoreRule[], file: string): boolean {
  const parts = normalize(file).split('/');
  let result = false;
  for (const rule of rules) {
    const hit = parts.some((_, i) => rule.regex.test(parts.slice(0, i + 1).join('/')));
    if (hit) result = !rule.negate;
  }
  return result;
}
