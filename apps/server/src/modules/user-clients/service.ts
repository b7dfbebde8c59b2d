import type {
  ListResponse,
  UserClient,
  UserClientCreate,
  UserClientListQuery,
  UserClientUpdate,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../http/types.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { Authority } from '../users/authority.js';
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

  /**
   * Adds an existing user to the selected client: only a user the actor may already see, that is
   * a member of a client where the actor may list users (any user, for a platform
   * administrator). Anyone else answers 404 exactly like an id that does not exist, so ids
   * cannot be tried to find users of other clients (docs/decisions.md).
   */
  async create(scope: TenantScope, actor: Actor, input: UserClientCreate): Promise<UserClient> {
    if (!(await this.seesUser(actor, input.users_id))) throw notFound();
    if (!(await profileOfClient(this.db, scope.clientId, input.profiles_id))) {
      throw profileNotFound();
    }
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

  private async seesUser(actor: Actor, usersId: number): Promise<boolean> {
    const authority = await Authority.of(this.db, actor);
    const clients = await clientIdsOf(this.db, usersId);
    if (authority.platformAdmin)
      return clients.length > 0 || Boolean(await findAccount(this.db, usersId));
    return clients.some((m) => authority.can(m.rota_clients_id, 'USUARIOS.LIST'));
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
