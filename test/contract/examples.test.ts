import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CiVerificationRequest, CiVerificationResponse } from '../../src/contract/ci.js';
import { AnchorState, ErrorResponse } from '../../src/contract/common.js';
import { ReceiptBundle } from '../../src/contract/bundle.js';
import { RECEIPT_BUNDLE_EXAMPLE } from '../../src/contract/bundle-example.js';
import * as examples from '../../src/contract/examples.js';
import { ANCHOR_STATE_EXAMPLE } from '../../src/contract/log-examples.js';
import { PolicyProfile, PolicyProfileList } from '../../src/contract/policies.js';
import { POLICY_PROFILE_EXAMPLE } from '../../src/contract/policy-example.js';
import {
  ReceiptListItem,
  RevocationResponse,
  VerificationStatus,
} from '../../src/contract/lifecycle.js';
import {
  VerificationReceipt,
  VerificationRequest,
  VerificationResponse,
} from '../../src/contract/verification.js';
import { publishedPolicy } from '../../src/receipts/published-policies.js';
import { createTestContext } from '../helpers/context.js';

/** The OpenAPI examples are valid instances of their schemas, and the document carries them. */

const PAIRS = [
  [VerificationRequest, examples.VERIFICATION_REQUEST_EXAMPLE, 'VerificationRequest'],
  [VerificationResponse, examples.VERIFICATION_RESPONSE_EXAMPLE, 'VerificationResponse'],
  [VerificationStatus, examples.VERIFICATION_STATUS_EXAMPLE, 'VerificationStatus'],
  [AnchorState, ANCHOR_STATE_EXAMPLE, 'AnchorState'],
  [ReceiptListItem, examples.RECEIPT_LIST_ITEM_EXAMPLE, 'ReceiptListItem'],
  [RevocationResponse, examples.REVOCATION_RESPONSE_EXAMPLE, 'RevocationResponse'],
  [CiVerificationRequest, examples.CI_REQUEST_EXAMPLE, 'CiVerificationRequest'],
  [CiVerificationResponse, examples.CI_RESPONSE_EXAMPLE, 'CiVerificationResponse'],
  [ErrorResponse, examples.ERROR_RESPONSE_EXAMPLE, 'ErrorResponse'],
  [VerificationReceipt, examples.VERIFICATION_RECEIPT_EXAMPLE, 'VerificationReceipt'],
  [ReceiptBundle, RECEIPT_BUNDLE_EXAMPLE, 'ReceiptBundle'],
  [PolicyProfile, POLICY_PROFILE_EXAMPLE, 'PolicyProfile'],
  [PolicyProfileList, { profiles: [POLICY_PROFILE_EXAMPLE] }, 'PolicyProfileList'],
] as const;

/** Media types whose bodies are not JSON or text a reader could learn from in Swagger UI. */
const OPAQUE = new Set([
  'application/pdf',
  'application/octet-stream',
  'application/timestamp-reply',
]);

type MediaType = { example?: unknown; examples?: unknown; schema?: Record<string, unknown> };
type Doc = {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, { example?: unknown }> };
};

function hasExample(doc: Doc, media: MediaType): boolean {
  if (media.example !== undefined || media.examples !== undefined) return true;
  const schema = media.schema ?? {};
  if (schema.example !== undefined) return true;
  const ref = typeof schema.$ref === 'string' ? schema.$ref.split('/').pop() : undefined;
  return ref !== undefined && doc.components.schemas[ref]?.example !== undefined;
}

/** `METHOD path status media` of every request body and 2xx answer the document shows bare. */
function withoutExample(doc: Doc): string[] {
  const missing: string[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const body = op.requestBody as { content?: Record<string, MediaType> } | undefined;
      for (const [type, media] of Object.entries(body?.content ?? {})) {
        if (!hasExample(doc, media)) missing.push(`${method} ${path} request ${type}`);
      }
      const responses = (op.responses ?? {}) as Record<
        string,
        { content?: Record<string, MediaType> }
      >;
      for (const [status, response] of Object.entries(responses)) {
        if (!status.startsWith('2')) continue;
        const content = Object.entries(response.content ?? {});
        if (content.length === 0) missing.push(`${method} ${path} ${status} (no body described)`);
        for (const [type, media] of content) {
          if (OPAQUE.has(type) || type.endsWith('schema+json')) continue;
          if (!hasExample(doc, media)) missing.push(`${method} ${path} ${status} ${type}`);
        }
      }
    }
  }
  return missing;
}

describe('OpenAPI examples', () => {
  it.each(PAIRS.map(([schema, example, name]) => [name, schema, example] as const))(
    '%s: the example is valid',
    (_name, schema, example) => {
      const parsed = schema.safeParse(example);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    },
  );

  it('are in the served document', async () => {
    const ctx = await createTestContext();
    try {
      const doc = (await ctx.app.inject({ url: '/openapi.json' })).json();
      for (const [, example, name] of PAIRS) {
        expect(doc.components.schemas[name].example, name).toEqual(example);
      }
      expect(doc.components.schemas.PublicStatus.example).toEqual(examples.PUBLIC_STATUS_EXAMPLE);
      expect(doc.components.schemas.SigstoreBundle.example).toEqual(
        examples.SIGSTORE_BUNDLE_EXAMPLE,
      );
      expect(withoutExample(doc)).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});

describe('the PolicyProfile example', () => {
  it('is what GET /policies/ron-standard-v1 answers', () => {
    expect(publishedPolicy('ron-standard-v1')).toEqual(POLICY_PROFILE_EXAMPLE);
  });
});

describe('the ReceiptBundle example', () => {
  it('is the worked example of docs/verification.md', () => {
    const file = new URL('../../docs/examples/receipt-bundle.json', import.meta.url);
    expect(RECEIPT_BUNDLE_EXAMPLE).toEqual(JSON.parse(readFileSync(file, 'utf8')));
  });

  it('stays out of the published JSON Schema', async () => {
    const ctx = await createTestContext();
    try {
      const schema = (await ctx.app.inject({ url: '/schemas/receipt-bundle.v1.json' })).json();
      expect(JSON.stringify(schema)).not.toContain(RECEIPT_BUNDLE_EXAMPLE.receipt.receiptId);
    } finally {
      await ctx.close();
    }
  });
});
