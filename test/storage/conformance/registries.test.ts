import { knexStores, storeConformance } from './harness.js';
import { signingKeyStoreContract, tokenUseStoreContract } from './keys-and-tokens.js';
import {
  apiKeyStoreContract,
  issuerStoreContract,
  notaryStoreContract,
  tenantPolicyStoreContract,
} from './registries.js';

storeConformance(knexStores, {
  ApiKeyAdminStore: apiKeyStoreContract,
  IssuerAdminStore: issuerStoreContract,
  NotaryAdminStore: notaryStoreContract,
  TenantPolicyAdminStore: tenantPolicyStoreContract,
  SigningKeyStore: signingKeyStoreContract,
  TokenUseStore: tokenUseStoreContract,
});
