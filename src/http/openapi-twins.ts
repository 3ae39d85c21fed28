/**
 * fastify-type-provider-zod emits every registered schema twice, as `X` (what responses give) and
 * `XInput` (what requests take). Where the two are the same JSON Schema the twin only adds noise
 * to Swagger UI and to generated clients: this keeps `X`, drops `XInput` and points every $ref
 * at `X`. Twins that really differ (a default, a transform) are kept.
 */

type Json = unknown;

const REF_PREFIX = '#/components/schemas/';

function rewriteRefs(value: Json, rename: ReadonlyMap<string, string>): Json {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, rename));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, Json> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === '$ref' && typeof item === 'string' && item.startsWith(REF_PREFIX)) {
      const name = item.slice(REF_PREFIX.length);
      out[key] = `${REF_PREFIX}${rename.get(name) ?? name}`;
    } else {
      out[key] = rewriteRefs(item, rename);
    }
  }
  return out;
}

export function mergeSchemaTwins<D extends { components?: { schemas?: Record<string, Json> } }>(
  doc: D,
): D {
  const schemas = doc.components?.schemas;
  if (!schemas) return doc;
  const rename = new Map<string, string>();
  // a twin may become equal once the twins it refers to are merged: repeat until stable
  for (let changed = true; changed;) {
    changed = false;
    for (const name of Object.keys(schemas) as string[]) {
      const twin: string | undefined = name.endsWith('Input')
        ? name.slice(0, -'Input'.length)
        : undefined;
      if (!twin || rename.has(name) || !(twin in schemas)) continue;
      const same =
        JSON.stringify(rewriteRefs(schemas[name], rename)) ===
        JSON.stringify(rewriteRefs(schemas[twin], rename));
      if (same) {
        rename.set(name, twin);
        changed = true;
      }
    }
  }
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => !rename.has(name)));
  const merged = rewriteRefs({ ...doc, components: { ...doc.components, schemas: kept } }, rename);
  return merged as D;
}
