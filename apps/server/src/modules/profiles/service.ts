import type {
  ListResponse,
  Profile,
  ProfileCreate,
  ProfileListQuery,
  ProfileUpdate,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, notFound } from '../../lib/errors.js';
import { listMeta } from '../../lib/pagination.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import {
  deleteProfile,
  findProfile,
  insertAdministratorProfile,
  insertProfile,
  listProfiles,
  updateProfile,
} from './repository.js';

type ProfileRow = NonNullable<Awaited<ReturnType<typeof findProfile>>>;

const toProfile = (row: ProfileRow): Profile => ({
  ...row,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const duplicateName = () =>
  new AppError('conflict', [{ field: 'name', message: 'duplicate_profile_name' }]);
const inUse = () => new AppError('conflict', [{ field: 'id', message: 'profile_in_use' }]);

/**
 * Profiles of the selected client. A change to a profile's permissions reaches its holders at
 * their next request: the session query reads the profile every time.
 */
export class ProfileService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
  ) {}

  async list(scope: TenantScope, query: ProfileListQuery): Promise<ListResponse<Profile>> {
    const { rows, total } = await listProfiles(this.db, scope, query);
    return { data: rows.map(toProfile), meta: listMeta(query, total) };
  }

  show(scope: TenantScope, id: number): Promise<Profile> {
    return this.showIn(this.db, scope, id);
  }

  private async showIn(db: Db, scope: TenantScope, id: number): Promise<Profile> {
    const row = await findProfile(db, scope, id);
    if (!row) throw notFound();
    return toProfile(row);
  }

  async create(scope: TenantScope, input: ProfileCreate, author: AuditAuthor): Promise<Profile> {
    try {
      return await this.audit.recorded(
        author,
        auditOf.created('profile', (profile) => profile.profiles_id),
        async (tx) => this.showIn(tx, scope, await insertProfile(tx, scope, input)),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }

  async update(
    scope: TenantScope,
    { id, ...changes }: ProfileUpdate,
    author: AuditAuthor,
  ): Promise<void> {
    try {
      await this.audit.recorded(
        author,
        auditOf.changed('profile', id, (tx) => this.showIn(tx, scope, id)),
        async (tx) => {
          if (!(await updateProfile(tx, scope, id, changes))) throw notFound();
        },
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }

  /** A profile someone holds stays (409): give them another one first. */
  async remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    try {
      await this.audit.recorded(
        author,
        auditOf.deleted('profile', id, (tx) => this.showIn(tx, scope, id)),
        async (tx) => {
          const outcome = await deleteProfile(tx, scope, id);
          if (outcome === 'absent') throw notFound();
          if (outcome === 'in_use') throw inUse();
        },
      );
    } catch (error) {
      // A membership took the profile between the check and the delete.
      if (isForeignKeyViolation(error)) throw inUse();
      throw error;
    }
  }

  /**
   * A new client's "Administrator" profile, in the transaction that makes the client
   * (provisionClient). Static: the seed makes the first client before any service exists.
   */
  static provisionAdministrator(tx: Db, scope: TenantScope) {
    return insertAdministratorProfile(tx, scope);
  }
}
