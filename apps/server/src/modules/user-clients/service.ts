import type {
  ListResponse,
  UserClient,
  UserClientCreate,
  UserClientListQuery,
  UserClientUpdate,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, invalidField, notFound, type FieldIssue } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { findAccount } from '../users/repository.js';
import {
  clientIdsOf,
  deleteMembership,
  findUserClient,
  insertMembership,
  listUserClients,
  lockUser,
  profileOfClient,
  repairSelectedClient,
  setMembershipProfile,
  type UserClientRow,
} from './repository.js';

export const toUserClient = (row: UserClientRow): UserClient => ({
  ...row,
  created_at: iso(row.created_at),
});

const profileNotFound = () => invalidField('profiles_id', 'profile_not_found');
const lastMembership = () =>
  new AppError('conflict', [{ field: 'id', message: 'last_membership' }]);

/**
 * /user/client: who belongs to the selected client and with which profile. A change here is
 * what the user's next request sees: the session query reads the profile per request.
 */
export class UserClientService {
  constructor(private readonly db: Db) {}

  list(scope: TenantScope, query: UserClientListQuery): Promise<ListResponse<UserClient>> {
    return listUserClients(this.db, scope, query, toUserClient);
  }

  async show(scope: TenantScope, id: number): Promise<UserClient> {
    const row = await findUserClient(this.db, scope, id);
    if (!row) throw notFound();
    return toUserClient(row);
  }

  /** Adds an existing user (of any client) to the selected one. */
  async create(scope: TenantScope, input: UserClientCreate): Promise<UserClient> {
    const issues: FieldIssue[] = [];
    if (!(await findAccount(this.db, input.users_id))) {
      issues.push({ field: 'users_id', message: 'user_not_found' });
    }
    if (!(await profileOfClient(this.db, scope.clientId, input.profiles_id))) {
      issues.push({ field: 'profiles_id', message: 'profile_not_found' });
    }
    if (issues.length > 0) throw new AppError('invalid_input', issues);
    let id: number;
    try {
      id = await insertMembership(this.db, scope.stamp(input));
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new AppError('conflict', [{ field: 'users_id', message: 'duplicate_membership' }]);
      }
      // The user or the profile went away meanwhile.
      if (isForeignKeyViolation(error)) throw new AppError('invalid_input');
      throw error;
    }
    return this.show(scope, id);
  }

  async update(scope: TenantScope, input: UserClientUpdate): Promise<void> {
    const row = await findUserClient(this.db, scope, input.id);
    if (!row) throw notFound();
    if (!(await profileOfClient(this.db, scope.clientId, input.profiles_id))) {
      throw profileNotFound();
    }
    try {
      await setMembershipProfile(this.db, row.user_clients_id, input.profiles_id);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw profileNotFound();
      throw error;
    }
  }

  /** A user keeps at least one client: their last membership cannot go (delete the user instead). */
  async remove(scope: TenantScope, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const row = await findUserClient(tx, scope, id);
      if (!row) throw notFound();
      // Locked, so two removals of the user's last two memberships cannot both pass the check.
      await lockUser(tx, row.users_id);
      const memberships = await clientIdsOf(tx, row.users_id);
      if (!memberships.some((m) => m.user_clients_id === id)) throw notFound();
      if (memberships.length <= 1) throw lastMembership();
      await deleteMembership(tx, row);
      await repairSelectedClient(tx, row.users_id);
    });
  }
}
