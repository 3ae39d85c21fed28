/**
 * What `receipts <command> --help` says: for each command, its usage line, one sentence on what
 * it does, every flag with a sentence and its default (or that it is required), and one example.
 * The flags listed here are checked against each command's own parser options
 * (test/cli/help.test.ts), so a flag cannot be added without its line here.
 */
export interface FlagHelp {
  /** The value's placeholder (`T`, `FILE`); none for a boolean flag. */
  value?: string;
  text: string;
  /** What happens without the flag; a required flag says `required` instead. */
  default?: string;
  required?: true;
}

export interface CommandHelp {
  usage: string;
  summary: string;
  flags: Record<string, FlagHelp>;
  example: string;
  /** Opens the store (DATABASE_URL or DATA_DIR): takes --init. */
  store?: true;
  /** Changes the store (always, or given these arguments): its output names the store it used. */
  writes?: true | ((args: readonly string[]) => boolean);
}

const json = (what: string): FlagHelp => ({
  text: `print ${what} as JSON instead of text`,
  default: 'text',
});
const tenant = (text: string, dflt?: string): FlagHelp =>
  dflt ? { value: 'T', text, default: dflt } : { value: 'T', text, required: true };

export const INIT_FLAG: FlagHelp = {
  text: 'create the embedded store in DATA_DIR when none exists there',
  default: 'refuse, naming DATA_DIR',
};

export const HELP: Record<string, CommandHelp> = {
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
    example: 'receipts keys revoke 6f1c2d3e-0000-4000-8000-000000000001',
    store: true,
    writes: true,
  },
  'notaries add': {
    usage:
      'notaries add --tenant T --id ID --name NAME --state XX --expires YYYY-MM-DD --public-key-file PEM',
    summary:
      'Registers (or updates) a notary and the P-256 key that checks its seals, for a tenant.',
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
        required: true,
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
    usage: 'tenants policy --tenant T [--ci-repositories LIST] [--ci-profile ID|default] [--clear]',
    summary:
      "Shows or sets which repositories a tenant's keys may get CI receipts for, and the CI profile they are judged under.",
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
      clear: { text: "remove the tenant's policy", default: 'keep it' },
    },
    example:
      "receipts tenants policy --tenant acme --ci-repositories 'acme/*' --ci-profile ci-provenance-v2",
    store: true,
    writes: (args) => args.some((a) => /^--(ci-repositories|ci-profile|clear)(=|$)/.test(a)),
  },
  'sign-revocation': {
    usage: 'sign-revocation --issuer ID --key-file PEM --receipt UUID [--json]',
    summary: 'Prints the three revoke headers, signed now by the issuer, for curl (no store).',
    flags: {
      issuer: { value: 'ID', text: 'the issuer id registered with issuers add', required: true },
      'key-file': {
        value: 'PEM',
        text: "the issuer's Ed25519 private key (PKCS#8 PEM)",
        required: true,
      },
      receipt: { value: 'UUID', text: 'the id of the receipt to revoke', required: true },
      json: json('the headers'),
    },
    example:
      'receipts sign-revocation --issuer escrow-co --key-file issuer.pem --receipt $ID --json',
  },
  'seal create': {
    usage: 'seal create --notary-id ID --state XX --doc-hash sha256:HEX --key-file PEM',
    summary: 'Prints a SIM-ECDSA-v1 seal (ES256 compact JWS) over a document hash (no store).',
    flags: {
      'notary-id': { value: 'ID', text: 'the notary id the seal names', required: true },
      state: { value: 'XX', text: 'the commission state the seal names', required: true },
      'doc-hash': { value: 'sha256:HEX', text: 'the hash of the sealed document', required: true },
      'key-file': { value: 'PEM', text: "the notary's EC P-256 private key", required: true },
    },
    example:
      'receipts seal create --notary-id N-1 --state TX --doc-hash sha256:$(sha256sum deed.pdf | cut -c1-64) --key-file notary.pem',
  },
  'anchor run': {
    usage: 'anchor run',
    summary:
      'Seals every pending receipt and revocation into a new signed checkpoint now (the server does it on a timer too).',
    flags: {},
    example: 'receipts anchor run',
    store: true,
    writes: true,
  },
  'log info': {
    usage: 'log info [--url PREFIX]',
    summary: "Prints the log's origin, note verifier key (vkey), tree size and root hash.",
    flags: {
      url: {
        value: 'PREFIX',
        text: 'read a served log at this prefix (e.g. https://receipts.example/log) instead of the store',
        default: 'the store (DATABASE_URL / DATA_DIR)',
      },
    },
    example: 'receipts log info --url http://localhost:3000/log',
    store: true,
  },
  'log verify': {
    usage:
      'log verify --url PREFIX [--vkey VKEY | --vkey-file FILE] [--witness VKEY]... [--state FILE] [--api-key KEY] [--json]',
    summary:
      'Monitors a served log: reads every tile, recomputes the root, checks the signature and consistency with the last run. Exit 0 consistent, 1 inconsistent, 2 bad usage or the log could not be read.',
    flags: {
      url: {
        value: 'PREFIX',
        text: "the log's URL prefix, the service's or a mirror's",
        required: true,
      },
      vkey: {
        value: 'VKEY',
        text: "pin the log's note verifier key (<origin>+<id>+<key>, from receipts log info)",
        default: "the log's own served key, not pinned",
      },
      'vkey-file': { value: 'FILE', text: 'the same, read from a file', default: 'none' },
      witness: {
        value: 'VKEY',
        text: "require a valid cosignature by this witness's Ed25519 cosigner vkey (repeatable)",
        default: 'no cosignature required',
      },
      state: {
        value: 'FILE',
        text: 'remember the checkpoint (and the key) between runs; each run must extend the last',
        default: 'no memory between runs',
      },
      'api-key': {
        value: 'KEY',
        text: 'a read-scoped key, for a log served with LOG_PUBLIC=false',
        default: 'none',
      },
      json: json('the result'),
    },
    example: 'receipts log verify --url http://localhost:3000/log --state log-state.json',
  },
  'signing-keys rotate': {
    usage: 'signing-keys rotate [--out FILE]',
    summary:
      'Generates a new Ed25519 signing key, endorsed by the outgoing one, and makes it active; restart the server after.',
    flags: {
      out: {
        value: 'FILE',
        text: 'where to write the new private key (mode 0600)',
        default: 'SIGNING_KEY_FILE, or DATA_DIR/signing-key.pem',
      },
    },
    example: 'receipts signing-keys rotate',
    store: true,
    writes: true,
  },
  'signing-keys list': {
    usage: 'signing-keys list',
    summary:
      'Lists the signing keys, active or retired, and whether a chain of trust reaches each.',
    flags: {},
    example: 'receipts signing-keys list',
    store: true,
  },
  'signing-keys endorse': {
    usage: 'signing-keys endorse KID',
    summary:
      "The active key vouches for a key already in the store that no endorsement reaches (only for keys known to be this service's own).",
    flags: {},
    example: 'receipts signing-keys endorse 3q2-7w',
    store: true,
    writes: true,
  },
  init: {
    usage: 'init',
    summary:
      'Creates the store (the embedded one in DATA_DIR, or the tables in DATABASE_URL) and brings its schema up to date.',
    flags: {},
    example: 'DATA_DIR=./data receipts init',
    writes: true,
  },
  migrate: {
    usage: 'migrate',
    summary:
      "Brings the store's schema up to date, creating the store if none exists (the server does this at start).",
    flags: {},
    example: 'receipts migrate',
    writes: true,
  },
  demo: {
    usage: 'demo [--url URL] [--dir DIR]',
    summary:
      'Tells the whole story (ALLOW, FLAG and BLOCK receipts, re-verify, PDF, anchor, revoke, offline check of the PDF) against a running service, or one it starts and stops.',
    flags: {
      url: {
        value: 'URL',
        text: 'the service to use; when none answers there, the demo starts one',
        default: 'http://127.0.0.1:$PORT',
      },
      dir: {
        value: 'DIR',
        text: 'where the demo writes its keys, the deed and the PDFs',
        default: 'DATA_DIR/demo',
      },
    },
    example: 'receipts demo --dir ./demo-files',
    store: true,
    writes: true,
  },
};

/** `receipts verify` is the verifier package's own command line, with its own --help. */
export const VERIFY_USAGE_LINE =
  'verify FILE (--jwks FILE|URL | --key FILE | --online URL | --log-policy FILE) [--artifact FILE] [--json]';

/** The overview `receipts --help` prints: every command with its one sentence. */
export function overview(version: string): string {
  const lines = [`receipts ${version}: the verification receipt service's command line`, ''];
  lines.push('usage: receipts <command> [flags]', '');
  for (const help of Object.values(HELP)) {
    lines.push(`  ${help.usage}`, `      ${help.summary}`);
  }
  lines.push(
    `  ${VERIFY_USAGE_LINE}`,
    '      Checks a bundle or PDF receipt offline (no store, no service); see receipts verify --help.',
    '',
    '  --version                         print the version',
    '  --init                            with a command that opens the store: create it if none exists',
    '',
    'receipts <command> --help (or receipts help <command>) shows every flag, its default and an',
    'example. The CLI uses the same DATABASE_URL / DATA_DIR as the server (docs/configuration.md),',
    'read from the environment and ./.env; without DATABASE_URL the store is ./data.',
  );
  return lines.join('\n');
}

function flagLabel(name: string, flag: FlagHelp): string {
  return flag.value ? `--${name} ${flag.value}` : `--${name}`;
}

/**
 * A command's help from its registry entry and the options its parser really takes: a parser
 * option with no entry here is an error (the help test runs every command through this).
 */
export function commandHelp(command: string, parserOptions: readonly string[]): string {
  const help = HELP[command];
  if (!help) throw new Error(`no help for the command ${command}`);
  const missing = parserOptions.filter((o) => !help.flags[o]);
  if (missing.length > 0) {
    throw new Error(`receipts ${command}: no help for --${missing.join(', --')}`);
  }
  const flags = Object.entries(help.flags);
  if (help.store) flags.push(['init', INIT_FLAG]);
  const labels = flags.map(([name, flag]) => flagLabel(name, flag));
  const width = Math.max(0, ...labels.map((l) => l.length)) + 2;
  const lines = [`usage: receipts ${help.usage}`, '', help.summary];
  if (flags.length > 0) lines.push('', 'flags:');
  flags.forEach(([, flag], i) => {
    const state = flag.required ? 'required' : `default: ${flag.default ?? 'none'}`;
    lines.push(`  ${(labels[i] as string).padEnd(width)}${flag.text} (${state})`);
  });
  lines.push('', 'example:', `  ${help.example}`);
  if (help.store) {
    lines.push(
      '',
      'store: DATABASE_URL, else the embedded store in DATA_DIR (default ./data, from the current folder).',
    );
  }
  return lines.join('\n');
}

/** Whether `command` run with `args` changes the store (its output then names the store). */
export function writesStore(command: string, args: readonly string[]): boolean {
  const writes = HELP[command]?.writes;
  return typeof writes === 'function' ? writes(args) : writes === true;
}

/** The commands of a group (`keys`), for `receipts keys --help`. */
export function groupHelp(group: string): string | undefined {
  const entries = Object.entries(HELP).filter(([name]) => name.startsWith(`${group} `));
  if (entries.length === 0) return undefined;
  const lines = [`usage: receipts ${group} <command> [flags]`, ''];
  for (const [, help] of entries) lines.push(`  ${help.usage}`, `      ${help.summary}`);
  lines.push('', `receipts ${group} <command> --help shows every flag and an example.`);
  return lines.join('\n');
}
