export const SCOPES = ['verify', 'read', 'anchor', 'revoke', 'webhooks'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
