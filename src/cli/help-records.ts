import type { CommandHelp } from './help-types.js';
import { json, tenant } from './help-flags.js';

/** The help of the commands that manage records: API keys, notaries, issuers, tenants. */
export const RECORD_HELP: Record<string, CommandHelp> = {
  'keys create': {
    usage: 'keys create --tenant T --name N --scopes LIST [--json]',
    summary: 'Creates an API key for a tenant and prints it once; only its hash is stored.',
    flags: {
      tenant: tenant('the tenant the key acts for'),
      name: { value: 'N', text: 'a label for the key, shown by keys list', required: true },
      scopes: {
        value: 'LIST',
        text: 'what the key may do, comma-separated: verify, read, anchor, revoke, admin',
        required: true,
      },
      json: json('{"id","key","tenant","name","scopes"}'),
    },
    example: 'receipts keys create --tenant acme --name ci --scopes verify,read',
    store: true,
    writes: true,
  },
  'keys list': {
    usage: 'keys list [--json]',
    summary: 'Lists the API keys (never their secrets), active and revoked.',
    flags: { json: json('the list') },
    example: 'receipts keys list --json',
    store: true,
  },
  'keys revoke': {
    usage: 'keys revoke ID',
    summary: 'Revokes an API key (the id keys list shows); it is refused with 401 at once.',
    flags: {},
    operand: '<ID>',
    example: 'receipts keys revoke 6f1c2d3e-0000-4000-8000-000000000001',
    store: true,
    writes: true,
  },
  'notaries add': {
    usage:
      'notaries add --tenant T --id ID --name NAME --state XX --expires YYYY-MM-DD (--public-key-file PEM | --certificate FILE)',
    summary:
      'Registers (or updates) a notary, the P-256 key that checks its seals and its X.509 signing certificate, for a tenant.',
    flags: {
      tenant: tenant('the tenant whose requests may name this notary'),
      id: { value: 'ID', text: 'the notary id requests give as ron.notaryId', required: true },
      name: { value: 'NAME', text: "the notary's name, as printed on receipts", required: true },
      state: { value: 'XX', text: 'the 2-letter state of the commission', required: true },
      expires: {
        value: 'YYYY-MM-DD',
        text: 'the day the commission ends; later seals are refused',
        required: true,
      },
      'public-key-file': {
        value: 'PEM',
        text: "the notary's EC P-256 public key (a private key file works too: only its public half is kept)",
        default: "the certificate's key, when --certificate is given",
      },
      certificate: {
        value: 'FILE',
        text: "the notary's X.509 signing certificate (PEM or DER), pinned by SHA-256 for doc.signatures (ron-pades-v1)",
        default: 'none',
      },
    },
    example:
      'receipts notaries add --tenant acme --id N-1 --name "Jane Q. Notary" --state TX --expires 2099-12-31 --public-key-file notary.pub.pem',
    store: true,
    writes: true,
  },
  'notaries list': {
    usage: 'notaries list [--tenant T] [--json]',
    summary: 'Lists the registered notaries.',
    flags: {
      tenant: tenant('only the notaries of this tenant', 'every tenant'),
      json: json('the list'),
    },
    example: 'receipts notaries list --tenant acme',
    store: true,
  },
  'notaries remove': {
    usage: 'notaries remove --tenant T --id ID',
    summary: "Removes a tenant's notary; its seals are refused from then on.",
    flags: {
      tenant: tenant('the tenant the notary is registered for'),
      id: { value: 'ID', text: 'the notary id', required: true },
    },
    example: 'receipts notaries remove --tenant acme --id N-1',
    store: true,
    writes: true,
  },
  'issuers add': {
    usage: 'issuers add --tenant T --id ISSUER (--public-key BASE64URL | --public-key-file PEM)',
    summary: "Authorises an issuer's Ed25519 key to revoke the tenant's receipts.",
    flags: {
      tenant: tenant('the tenant whose receipts the issuer may revoke'),
      id: { value: 'ISSUER', text: 'the issuer id, sent as x-issuer-id', required: true },
      'public-key': {
        value: 'BASE64URL',
        text: 'the raw 32-byte Ed25519 public key, base64url',
        default: 'none: give this or --public-key-file',
      },
      'public-key-file': {
        value: 'PEM',
        text: 'the Ed25519 public key as a PEM file (a private key is refused)',
        default: 'none: give this or --public-key',
      },
    },
    example: 'receipts issuers add --tenant acme --id escrow-co --public-key-file issuer.pub.pem',
    store: true,
    writes: true,
  },
  'issuers list': {
    usage: 'issuers list [--tenant T]',
    summary: 'Lists the issuers and their public keys.',
    flags: { tenant: tenant('only the issuers of this tenant', 'every tenant') },
    example: 'receipts issuers list --tenant acme',
    store: true,
  },
  'issuers remove': {
    usage: 'issuers remove --id ISSUER',
    summary: 'Removes an issuer; its revocations are refused from then on.',
    flags: { id: { value: 'ISSUER', text: 'the issuer id', required: true } },
    example: 'receipts issuers remove --id escrow-co',
    store: true,
    writes: true,
  },
  'tenants policy': {
    usage:
      'tenants policy --tenant T [--ci-repositories LIST] [--ci-profile ID|default] [--notary-trust-anchors FILE|none] [--notary-signer certificate|subject] [--clear]',
    summary:
      "Shows or sets which repositories a tenant's keys may get CI receipts for, the CI profile they are judged under, and the CA certificates its notaries' document signatures must chain to.",
    flags: {
      tenant: tenant('the tenant whose policy to show or change'),
      'ci-repositories': {
        value: 'LIST',
        text: 'owner/* or owner/repo, comma-separated; any other repository gets FAIL repository_not_allowed',
        default: 'unchanged (no policy: any repository)',
      },
      'ci-profile': {
        value: 'ID',
        text: 'ci-provenance-v1, ci-provenance-v2, or default to unpin',
        default: 'unchanged (no policy: ci-provenance-v1)',
      },
      'notary-trust-anchors': {
        value: 'FILE',
        text: "the CA certificates (PEM, several blocks allowed, or one DER) that notaries' signing certificates must chain to (doc.signatures); none removes them",
        default: 'unchanged (none: every document signature is signer_not_trusted)',
      },
      'notary-signer': {
        value: 'RULE',
        text: "certificate: the signer must be the notary's registered certificate; subject: a certificate whose subject names the registered notary",
        default: 'unchanged (certificate)',
      },
      clear: { text: "remove the tenant's policy", default: 'keep it' },
    },
    example:
      "receipts tenants policy --tenant acme --ci-repositories 'acme/*' --ci-profile ci-provenance-v2",
    store: true,
    writes: (flags) =>
      ['ci-repositories', 'ci-profile', 'notary-trust-anchors', 'notary-signer', 'clear'].some(
        (name) => flags.given(name),
      ),
  },
};
