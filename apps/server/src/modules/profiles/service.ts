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
import {
  deleteProfile,
  findProfile,
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
  constructor(private readonly db: Db) {}

  async list(scope: TenantScope, query: ProfileListQuery): Promise<ListResponse<Profile>> {
    const { rows, total } = await listProfiles(this.db, scope, query);
    return { data: rows.map(toProfile), meta: listMeta(query, total) };
  }

  async show(scope: TenantScope, id: number): Promise<Profile> {
    const row = await findProfile(this.db, scope, id);
    if (!row) throw notFound();
    return toProfile(row);
  }

  async create(scope: TenantScope, input: ProfileCreate): Promise<Profile> {
    try {
      return await this.show(scope, await insertProfile(this.db, scope, input));
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }

  async update(scope: TenantScope, { id, ...changes }: ProfileUpdate): Promise<void> {
    try {
      if (!(await updateProfile(this.db, scope, id, changes))) throw notFound();
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }

  /** A profile someone holds stays (409): give them another one first. */
  async remove(scope: TenantScope, id: number): Promise<void> {
    let outcome: Awaited<ReturnType<typeof deleteProfile>>;
    try {
      outcome = await deleteProfile(this.db, scope, id);
    } catch (error) {
      // A membership took the profile between the check and the delete.
      if (isForeignKeyViolation(error)) throw inUse();
      throw error;
    }
    if (outcome === 'absent') throw notFound();
    if (outcome === 'in_use') throw inUse();
  }
}
