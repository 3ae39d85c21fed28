import { describe, expect, it } from 'vitest';
import { CiVerificationRequest, CiVerificationResponse } from '../../src/contract/ci.js';
import { AnchorState, ErrorResponse } from '../../src/contract/common.js';
import * as examples from '../../src/contract/examples.js';
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
import { createTestContext } from '../helpers/context.js';

/** The OpenAPI examples are valid instances of their schemas, and the document carries them. */

const PAIRS = [
  [VerificationRequest, examples.VERIFICATION_REQUEST_EXAMPLE, 'VerificationRequest'],
  [VerificationResponse, examples.VERIFICATION_RESPONSE_EXAMPLE, 'VerificationResponse'],
  [VerificationStatus, examples.VERIFICATION_STATUS_EXAMPLE, 'VerificationStatus'],
  [AnchorState, examples.ANCHOR_STATE_EXAMPLE, 'AnchorState'],
  [ReceiptListItem, examples.RECEIPT_LIST_ITEM_EXAMPLE, 'ReceiptListItem'],
  [RevocationResponse, examples.REVOCATION_RESPONSE_EXAMPLE, 'RevocationResponse'],
  [CiVerificationRequest, examples.CI_REQUEST_EXAMPLE, 'CiVerificationRequest'],
  [CiVerificationResponse, examples.CI_RESPONSE_EXAMPLE, 'CiVerificationResponse'],
  [ErrorResponse, examples.ERROR_RESPONSE_EXAMPLE, 'ErrorResponse'],
  [VerificationReceipt, examples.VERIFICATION_RECEIPT_EXAMPLE, 'VerificationReceipt'],
] as const;

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
    } finally {
      await ctx.close();
    }
  });
});
