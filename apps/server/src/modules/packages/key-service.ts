import { ed25519PublicKey, signatureBytes, verifyPackage } from '@rota/archive-check';
import type {
  ListResponse,
  PackageKey,
  PackageKeyCreate,
  PackageKeyListQuery,
  PackageKeyUpdate,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import { clientPackagePolicies as policies } from '../clients/views.js';
import {
  deletePackageKey,
  findPackageKey,
  insertPackageKey,
  listPackageKeys,
  renamePackageKey,
  trustedKeys,
  type PackageKeyRow,
} from './key-repository.js';

const toPackageKey = (row: PackageKeyRow): PackageKey => ({
  ...row,
  created_at: iso(row.created_at),
});

/** The key a version's signature was checked against (null: unsigned). */
export interface SignatureCheck {
  signature: string;
  rota_package_keys_id: number;
}

/** The Ed25519 keys a client trusts to sign its packages, and the check of an upload. */
export class PackageKeyService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
  ) {}

  list(scope: TenantScope, query: PackageKeyListQuery): Promise<ListResponse<PackageKey>> {
    return listPackageKeys(this.db, scope, query, toPackageKey);
  }

  show(scope: TenantScope, id: number): Promise<PackageKey> {
    return this.showIn(this.db, scope, id);
  }

  async create(scope: TenantScope, input: PackageKeyCreate, author: AuditAuthor) {
    const parsed = ed25519PublicKey(input.public_key);
    if (!parsed) throw invalidField('public_key', 'invalid_public_key');
    try {
      return await this.audit.recorded(
        author,
        auditOf.created('package_key', (key: PackageKey) => key.rota_package_keys_id),
        async (tx) => {
          const id = await insertPackageKey(tx, scope, {
            name: input.name,
            public_key: input.public_key.trim(),
            fingerprint: parsed.fingerprint,
          });
          return this.showIn(tx, scope, id);
        },
      );
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new AppError('conflict', [{ field: 'public_key', message: 'duplicate_public_key' }]);
      }
      throw error;
    }
  }

  async update(scope: TenantScope, { id, name }: PackageKeyUpdate, author: AuditAuthor) {
    await this.audit.recorded(
      author,
      auditOf.changed('package_key', id, (tx) => this.showIn(tx, scope, id)),
      async (tx) => {
        if (!(await renamePackageKey(tx, scope, id, name))) throw notFound();
      },
    );
  }

  /** Versions it signed keep their signature; only new uploads stop being accepted by it. */
  async remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    await this.audit.recorded(
      author,
      auditOf.deleted('package_key', id, (tx) => this.showIn(tx, scope, id)),
      (tx) => deletePackageKey(tx, scope, id),
    );
  }

  /**
   * The upload's signature checked against the client's trusted keys; a client that requires
   * signed packages refuses an upload without one. The refusal is a field error of `signature`.
   */
  async check(
    tx: Db,
    scope: TenantScope,
    sha256: string,
    signature: string | null | undefined,
  ): Promise<SignatureCheck | null> {
    if (!signature) {
      const [policy] = await tx
        .select({ required: policies.require_signed_packages })
        .from(policies)
        .where(scope.owns(policies.rota_clients_id));
      if (policy?.required) throw invalidField('signature', 'signature_required');
      return null;
    }
    if (!signatureBytes(signature)) throw invalidField('signature', 'signature_malformed');
    const keys = await trustedKeys(tx, scope);
    if (keys.length === 0) throw invalidField('signature', 'signature_unknown_key');
    const signer = keys.find((key) => verifyPackage(sha256, signature, key.public_key));
    if (!signer) throw invalidField('signature', 'signature_invalid');
    return { signature: signature.trim(), rota_package_keys_id: signer.rota_package_keys_id };
  }

  private async showIn(db: Db, scope: TenantScope, id: number): Promise<PackageKey> {
    const row = await findPackageKey(db, scope, id);
    if (!row) throw notFound();
    return toPackageKey(row);
  }
}
