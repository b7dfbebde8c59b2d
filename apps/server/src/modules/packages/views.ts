import { QueryBuilder } from 'drizzle-orm/pg-core';
import { rotaPackageKeys } from '../../db/schema/packages.js';

const qb = new QueryBuilder();

/** Read-only: the trusted keys as a version names its signer. Writes go through its service. */
export const packageKeyNames = qb
  .select({
    rota_package_keys_id: rotaPackageKeys.rota_package_keys_id,
    rota_clients_id: rotaPackageKeys.rota_clients_id,
    name: rotaPackageKeys.name,
    public_key: rotaPackageKeys.public_key,
    fingerprint: rotaPackageKeys.fingerprint,
  })
  .from(rotaPackageKeys)
  .as('package_key_names');
