import { isScope, SCOPES, type Scope } from '../../auth/scopes.js';
import { CliError, flags, required, withStore, type Command } from '../context.js';

const create: Command = async (ctx) => {
  const { values } = flags(ctx, {
    tenant: { type: 'string' },
    name: { type: 'string' },
    scopes: { type: 'string' },
    json: { type: 'boolean' },
  });
  const tenant = required(values.tenant, 'tenant');
  const name = required(values.name, 'name');
  const scopes = required(values.scopes, 'scopes')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = scopes.filter((s) => !isScope(s));
  if (bad.length > 0 || scopes.length === 0) {
    throw new CliError(`unknown scope(s) ${bad.join(', ')}; valid: ${SCOPES.join(', ')}`);
  }
  const { record, token } = await withStore(ctx, (repos) =>
    repos.apiKeys.create({ tenant, name, scopes: [...new Set(scopes as Scope[])] }),
  );
  if (values.json) {
    ctx.out(JSON.stringify({ id: record.id, key: token, tenant, name, scopes: record.scopes }));
  } else {
    ctx.out(`API key ${record.id} for tenant ${tenant} (${record.scopes.join(', ')}):`);
    ctx.out(token);
    ctx.out('Store it now: it is not shown again (only its hash is kept).');
  }
};

const list: Command = async (ctx) => {
  const { values } = flags(ctx, { json: { type: 'boolean' } });
  const keys = await withStore(ctx, (repos) => repos.apiKeys.list());
  if (values.json) {
    ctx.out(JSON.stringify(keys));
    return;
  }
  for (const k of keys) {
    const state = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active';
    ctx.out(`${k.id}  ${k.tenant}  ${k.name}  [${k.scopes.join(',')}]  ${state}`);
  }
};

const revoke: Command = async (ctx) => {
  const { positionals } = flags(ctx, {});
  const id = required(positionals[0], 'id (positional)');
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw new CliError(`not a key id: ${id}`);
  const revoked = await withStore(ctx, (repos) => repos.apiKeys.revoke(id));
  if (!revoked) throw new CliError(`no active API key with id ${id}`, 1);
  ctx.out(`revoked API key ${id}`);
};

export const keyCommands = { create, list, revoke };
