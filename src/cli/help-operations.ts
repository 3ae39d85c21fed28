import type { CommandHelp } from './help-types.js';
import { json } from './help-flags.js';

/** The help of the other commands: signing, seals, the log, keys, the store, the demo. */
export const OPERATION_HELP: Record<string, CommandHelp> = {
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
  'policy check': {
    usage: 'policy check [FILE]',
    operand: '[FILE]',
    summary:
      "Validates a repository's .github/receipts.yml offline, as the GitHub App reads it, and says what each gated environment accepts (no store).",
    flags: {},
    example: 'receipts policy check .github/receipts.yml',
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
        repeatable: true,
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
    operand: '<KID>',
    dashOperand: true,
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
    // no `writes`: creating or migrating the store is the whole output, which names the store
  },
  migrate: {
    usage: 'migrate',
    summary:
      "Brings the store's schema up to date, creating the store if none exists (the server does this at start).",
    flags: {},
    example: 'receipts migrate',
  },
  demo: {
    usage: 'demo [--url URL] [--dir DIR]',
    summary:
      'Tells the whole story (ALLOW, FLAG and BLOCK receipts, PDF, anchor, re-verify, revoking the FLAG receipt, offline check of the ALLOW PDF) against a running service, or one it starts and stops.',
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
