import fs from 'node:fs';
import path from 'node:path';
import { jwkKey } from '../src/primitives.js';

/** The recorded fixtures (scripts/record-verify-fixtures.ts): real service output, no service. */
const dir = path.join(import.meta.dirname, 'fixtures');

export const fixtureBytes = (name: string): Uint8Array =>
  new Uint8Array(fs.readFileSync(path.join(dir, name)));
export const fixtureText = (name: string): string => fs.readFileSync(path.join(dir, name), 'utf8');
export const fixture = <T = Record<string, unknown>>(name: string): T =>
  JSON.parse(fixtureText(name)) as T;

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The service's published keys, as a relying party pins them from its JWKS. */
export const pinnedKeys = (): Uint8Array[] =>
  (fixture<{ keys: unknown[] }>('jwks.json').keys.map(jwkKey) as Uint8Array[]).filter(Boolean);

/** The instant a recorded status statement was produced, so its age is zero in a test. */
export const producedAt = (name: string): Date =>
  new Date(fixture<Json>(name).statement.producedAt);
