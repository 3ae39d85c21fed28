import { knexStores, storeConformance } from './harness.js';
import { receiptStoreContract } from './receipt-store.js';
import { revocationStoreContract } from './revocation-store.js';

storeConformance(knexStores, {
  ReceiptStore: receiptStoreContract,
  RevocationStore: revocationStoreContract,
});
