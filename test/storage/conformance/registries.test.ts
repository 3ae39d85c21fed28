import { knexStores, storeConformance } from './harness.js';
import { signingKeyStoreContract, tokenUseStoreContract } from './keys-and-tokens.js';
import {
  apiKeyStoreContract,
  revokerStoreContract,
  notaryStoreContract,
  tenantPolicyStoreContract,
} from './registries.js';

storeConformance(knexStores, {
  ApiKeyAdminStore: apiKeyStoreContract,
  RevokerAdminStore: revokerStoreContract,
  NotaryAdminStore: notaryStoreContract,
  TenantPolicyAdminStore: tenantPolicyStoreContract,
  SigningKeyStore: signingKeyStoreContract,
  TokenUseStore: tokenUseStoreContract,
});
