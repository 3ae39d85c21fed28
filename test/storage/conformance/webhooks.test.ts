import { knexStores, storeConformance } from './harness.js';
import { webhookStoreContract } from './webhook-store.js';

storeConformance(knexStores, { WebhookStore: webhookStoreContract });
