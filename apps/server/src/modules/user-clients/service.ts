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
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import type { TeamService } from '../teams/service.js';
import type { AccountService } from '../users/account-service.js';
import { Authority } from '../users/authority.js';
import {
  clientIdsOf,
  deleteMembership,
  existingClientIds,
  findUserClient,
  grantsOf,
  insertMembership,
  listMemberships,
  listUserClients,
  membershipsOf,
  profileOfClient,
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
 * The membership table is this module's: the users area (UserService), sign-in and clients
 * reach it through the methods below; those taking `db` run in the caller's transaction.
 */
export class UserClientService {
  constructor(
    private readonly db: Db,
    private readonly accounts: AccountService,
    private readonly teams: TeamService,
    private readonly audit: AuditService,
  ) {}

  list(scope: TenantScope, query: UserClientListQuery): Promise<ListResponse<UserClient>> {
    return listUserClients(this.db, scope, query, toUserClient);
  }

  async show(scope: TenantScope, id: number): Promise<UserClient> {
    const row = await this.find(this.db, scope, id);
    if (!row) throw notFound();
    return row;
  }

  /** One membership of the selected client, or undefined. */
  async find(db: Db, scope: TenantScope, id: number): Promise<UserClient | undefined> {
    const row = await findUserClient(db, scope, id);
    return row && toUserClient(row);
  }

  /**
   * Adds an existing user to the selected client: only a user the actor may already see, that is
   * a member of a client where the actor may list users (any user, for a platform
   * administrator). Anyone else answers 404 exactly like an id that does not exist, so ids
   * cannot be tried to find users of other clients (docs/decisions.md).
   */
  async create(
    scope: TenantScope,
    actor: Actor,
    input: UserClientCreate,
    author: AuditAuthor,
  ): Promise<UserClient> {
    if (!(await this.seesUser(actor, input.users_id))) throw notFound();
    if (!(await profileOfClient(this.db, scope.clientId, input.profiles_id))) {
      throw profileNotFound();
    }
    try {
      return await this.audit.recorded(
        author,
        auditOf.created('user_client', (created) => created.user_clients_id),
        async (tx) => {
          const id = await insertMembership(tx, scope.stamp(input));
          return (await this.find(tx, scope, id))!;
        },
      );
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new AppError('conflict', [{ field: 'users_id', message: 'duplicate_membership' }]);
      }
      // The user or the profile went away meanwhile.
      if (isForeignKeyViolation(error)) throw new AppError('invalid_input');
      throw error;
    }
  }

  private async seesUser(actor: Actor, usersId: number): Promise<boolean> {
    const authority = await this.authorityOf(this.db, actor);
    const clients = await clientIdsOf(this.db, usersId);
    if (authority.platformAdmin)
      return clients.length > 0 || Boolean(await this.accounts.find(this.db, usersId));
    return clients.some((m) => authority.can(m.rota_clients_id, 'USUARIOS.LIST'));
  }

  async update(scope: TenantScope, input: UserClientUpdate, author: AuditAuthor): Promise<void> {
    try {
      await this.audit.recorded(
        author,
        {
          action: 'update',
          entity: 'user_client',
          entity_id: input.id,
          before: async (tx) => {
            const row = await this.find(tx, scope, input.id);
            if (!row) throw notFound();
            return row;
          },
          after: (tx) => this.find(tx, scope, input.id),
        },
        async (tx) => {
          if (!(await profileOfClient(tx, scope.clientId, input.profiles_id))) {
            throw profileNotFound();
          }
          await setMembershipProfile(tx, input.id, input.profiles_id);
        },
      );
    } catch (error) {
      if (isForeignKeyViolation(error)) throw profileNotFound();
      throw error;
    }
  }

  /** A user keeps at least one client: their last membership cannot go (delete the user instead). */
  async remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    await this.db.transaction(async (tx) => {
      const row = await findUserClient(tx, scope, id);
      if (!row) throw notFound();
      // Locked, so two removals of the user's last two memberships cannot both pass the check.
      await this.accounts.lock(tx, row.users_id);
      const memberships = await clientIdsOf(tx, row.users_id);
      if (!memberships.some((m) => m.user_clients_id === id)) throw notFound();
      if (memberships.length <= 1) throw lastMembership();
      await this.end(tx, row);
      await this.accounts.repairSelectedClient(tx, row.users_id);
      await this.audit.write(tx, author, {
        action: 'delete',
        entity: 'user_client',
        entity_id: id,
        before: toUserClient(row),
      });
    });
  }

  /* ---------- For the users area, sign-in and clients (their transaction's `db`). ---------- */

  /** What the actor may do to users beyond the selected client (their own memberships). */
  async authorityOf(db: Db, actor: Actor): Promise<Authority> {
    return Authority.of(actor, await grantsOf(db, actor.user.users_id));
  }

  /** The clients a user works for, with the profile's permissions in each, by client name. */
  listMemberships(usersId: number) {
    return listMemberships(this.db, usersId);
  }

  /** A user's memberships: key, client and profile of each. */
  clientsOf(db: Db, usersId: number) {
    return clientIdsOf(db, usersId);
  }

  /** Memberships of `usersIds` with client and profile names, in `clientIds` (null: all). */
  membershipsOf(db: Db, usersIds: readonly number[], clientIds: number[] | null) {
    return membershipsOf(db, usersIds, clientIds);
  }

  existingClients(db: Db, ids: readonly number[]) {
    return existingClientIds(db, ids);
  }

  profileOfClient(db: Db, clientId: number, profileId: number) {
    return profileOfClient(db, clientId, profileId);
  }

  add(db: Db, values: { users_id: number; rota_clients_id: number; profiles_id: number }) {
    return insertMembership(db, values);
  }

  setProfile(db: Db, userClientsId: number, profilesId: number) {
    return setMembershipProfile(db, userClientsId, profilesId);
  }

  /**
   * Ends a membership, and with it the user's teams in that client (a team gathers members of
   * its client only). The caller repairs the user's selected client once its changes are done.
   */
  async end(
    db: Db,
    membership: { user_clients_id: number; users_id: number; rota_clients_id: number },
  ): Promise<void> {
    await this.teams.leaveClient(db, membership.users_id, membership.rota_clients_id);
    await deleteMembership(db, membership.user_clients_id);
  }
}
