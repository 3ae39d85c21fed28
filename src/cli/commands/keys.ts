import { isScope, SCOPES, type Scope } from '../../auth/scopes.js';
import { CliError, required, withStore, type Command } from '../context.js';

const create: Command = async (ctx) => {
  const { flags } = ctx;
  const tenant = required(flags.string('tenant'), 'tenant');
  const name = required(flags.string('name'), 'name');
  const scopes = required(flags.string('scopes'), 'scopes')
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
  if (flags.boolean('json')) {
    ctx.out(JSON.stringify({ id: record.id, key: token, tenant, name, scopes: record.scopes }));
  } else {
    ctx.out(`API key ${record.id} for tenant ${tenant} (${record.scopes.join(', ')}):`);
    ctx.out(token);
    ctx.out('Store it now: it is not shown again (only its hash is kept).');
  }
};

const list: Command = async (ctx) => {
  const keys = await withStore(ctx, (repos) => repos.apiKeys.list());
  if (ctx.flags.boolean('json')) {
    ctx.out(JSON.stringify(keys));
    return;
  }
  for (const k of keys) {
    const state = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active';
    ctx.out(`${k.id}  ${k.tenant}  ${k.name}  [${k.scopes.join(',')}]  ${state}`);
  }
};

const revoke: Command = async (ctx) => {
  const id = required(ctx.operands[0], 'id (positional)');
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw new CliError(`not a key id: ${id}`);
  const revoked = await withStore(ctx, (repos) => repos.apiKeys.revoke(id));
  if (!revoked) throw new CliError(`no active API key with id ${id}`, 1);
  ctx.out(`revoked API key ${id}`);
};

export const keyCommands = { create, list, revoke };
