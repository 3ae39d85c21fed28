import { knexStores, storeConformance } from './harness.js';
import { logStoreContract } from './log-store.js';

storeConformance(knexStores, { LogStore: logStoreContract });
