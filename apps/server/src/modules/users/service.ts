import {
  AVATAR_FILE_FIELD,
  AVATAR_MAX_BYTES,
  hasPermissions,
  type AccountUpdate,
  type ClientSelect,
  type ListResponse,
  type MeResponse,
  type PasswordUpdate,
  type Permission,
  type User,
  type UserClient,
  type UserCreate,
  type UserListQuery,
  type UserMembership,
  type UserName,
  type UserNameQuery,
  type UserPasswordSet,
  type UserUpdate,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, forbidden, invalidField, notFound, type FieldIssue } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import type { Actor } from '../../http/types.js';
import type { AuditAuthor, AuditService } from '../audit/service.js';
import type { AuthService } from '../auth/service.js';
import type { UserClientService } from '../user-clients/service.js';
import type { AccountService } from './account-service.js';
import type { Authority } from './authority.js';
import type { BlobStore } from '../blobs/blob-store.js';
import { AvatarStore, sniffImage } from './avatar-store.js';
import {
  accountConflicts,
  avatarInUse,
  deleteAccount,
  findAccount,
  findMember,
  insertAccount,
  listMemberNames,
  listUsers,
  updateAccount,
  type AccountRow,
  type AccountValues,
} from './repository.js';

type MembershipRow = Awaited<ReturnType<UserClientService['membershipsOf']>>[number];
type CurrentMemberships = Awaited<ReturnType<UserClientService['clientsOf']>>;

const toUser = (row: AccountRow, memberships: readonly MembershipRow[]): User => ({
  users_id: row.users_id,
  name: row.name,
  last_name: row.last_name,
  email: row.email,
  access: row.access,
  group: row.group,
  sector: row.sector,
  work: row.work,
  role: row.role,
  avatar: row.avatar,
  password_change_required: row.password_change_required,
  is_platform_admin: row.is_platform_admin,
  clients: memberships
    .filter((m) => m.users_id === row.users_id)
    .map((m) => ({
      rota_clients_id: m.rota_clients_id,
      client_name: m.client_name,
      profiles_id: m.profiles_id,
      profile_name: m.profile_name,
    })),
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/** The account fields `update` may change, compared with the row so unchanged ones are skipped. */
const ACCOUNT_FIELDS = [
  'name',
  'last_name',
  'email',
  'access',
  'group',
  'sector',
  'work',
  'role',
  'password_change_required',
] as const;

/** What `delete` did, for the audit log: the user went, or only their place in the client. */
type UserRemoval =
  | { entity: 'user'; entity_id: number; before: User }
  | { entity: 'user_client'; entity_id: number; before: UserClient };

/** Most names a picker gets at once; it narrows them with `search`. */
export const NAME_LIST_LIMIT = 100;

const duplicateConflict = (issues: FieldIssue[]) =>
  new AppError('conflict', issues.length > 0 ? issues : undefined);

export class UserService {
  readonly avatars: AvatarStore;

  constructor(
    private readonly db: Db,
    blobs: BlobStore,
    private readonly deps: {
      accounts: AccountService;
      userClients: UserClientService;
      /** Ends sessions and recovery codes when a password changes. */
      auth: AuthService;
      audit: AuditService;
    },
  ) {
    this.avatars = new AvatarStore(db, blobs);
  }

  private authority(db: Db, actor: Actor): Promise<Authority> {
    return this.deps.userClients.authorityOf(db, actor);
  }

  /* ---------- One's own account. ---------- */

  /**
   * One's own password. The current one is asked again so a borrowed session cannot take the
   * account over; every other session of the user ends.
   */
  async updateOwnPassword(actor: Actor, input: PasswordUpdate, author: AuditAuthor): Promise<void> {
    const { accounts, auth, audit } = this.deps;
    const user = await accounts.withPassword(this.db, actor.user.users_id);
    if (!user) throw new AppError('unauthorized');
    if (!(await verifyPassword(input.current_password, user.password_hash))) {
      throw invalidField('current_password', 'current_password_wrong');
    }
    const passwordHash = await hashPassword(input.password);
    await this.db.transaction(async (tx) => {
      await accounts.setPassword(tx, user.users_id, passwordHash);
      await auth.revokeCredentials(tx, user.users_id, actor.sessionId);
      await audit.write(tx, author, {
        action: 'password_change',
        entity: 'user',
        entity_id: user.users_id,
      });
    });
  }

  /**
   * One's own name, last name, picture removal, language and colour scheme, audited
   * as a change of the user. Answers the account as `me` does, with the change in it.
   */
  async updateOwnAccount(
    actor: Actor,
    input: AccountUpdate,
    author: AuditAuthor,
  ): Promise<MeResponse> {
    const usersId = actor.user.users_id;
    const values: AccountValues = {};
    if (input.name !== undefined) values.name = input.name;
    if (input.last_name !== undefined) values.last_name = input.last_name;
    if (input.language !== undefined) values.language = input.language;
    if (input.color_scheme !== undefined) values.color_scheme = input.color_scheme;
    if (input.avatar === null) values.avatar = null;
    let before: AccountRow | undefined;
    await this.db.transaction(async (tx) => {
      if (!(await this.deps.accounts.lock(tx, usersId))) throw new AppError('unauthorized');
      before = await findAccount(tx, usersId);
      if (!before) throw new AppError('unauthorized');
      await updateAccount(tx, usersId, values);
      const changed = Object.keys(values) as (keyof AccountValues)[];
      const old = before as Record<string, unknown>;
      await this.deps.audit.write(tx, author, {
        action: 'update',
        entity: 'user',
        entity_id: usersId,
        before: Object.fromEntries(changed.map((k) => [k, old[k] ?? null])),
        after: values,
      });
    });
    if (values.avatar === null && before?.avatar) {
      await this.avatars.release(before.avatar, (url) => avatarInUse(this.db, url));
    }
    return this.deps.auth.me({ ...actor, user: { ...actor.user, ...values } });
  }

  /** Client selection: only to a client the user belongs to. */
  async selectClient(actor: Actor, input: ClientSelect): Promise<void> {
    if (input.users_id !== actor.user.users_id) throw new AppError('forbidden');
    const memberships = await this.deps.userClients.clientsOf(this.db, actor.user.users_id);
    if (!memberships.some((m) => m.rota_clients_id === input.rota_clients_id_selected)) {
      throw new AppError('client_not_member');
    }
    await this.deps.accounts.setSelectedClient(actor.user.users_id, input.rota_clients_id_selected);
  }

  /* ---------- The users area: members of the selected client. ---------- */

  async list(actor: Actor, scope: TenantScope, query: UserListQuery): Promise<ListResponse<User>> {
    const authority = await this.authority(this.db, actor);
    const page = await listUsers(this.db, scope, query, (row) => row);
    const memberships = await this.deps.userClients.membershipsOf(
      this.db,
      page.data.map((u) => u.users_id),
      authority.visibleClients(),
    );
    return { data: page.data.map((row) => toUser(row, memberships)), meta: page.meta };
  }

  async show(actor: Actor, scope: TenantScope, id: number): Promise<User> {
    const row = await findMember(this.db, scope, id);
    if (!row) throw notFound();
    return this.describe(this.db, await this.authority(this.db, actor), row);
  }

  async names(scope: TenantScope, query: UserNameQuery): Promise<{ data: UserName[] }> {
    return { data: await listMemberNames(this.db, scope, query.search, NAME_LIST_LIMIT) };
  }

  /**
   * A new account and its memberships, in one transaction. Each membership must be in a client
   * where the actor may create users, with a profile of that client; the first one is the
   * client the new user starts in.
   */
  async create(actor: Actor, input: UserCreate, author: AuditAuthor): Promise<User> {
    const authority = await this.authority(this.db, actor);
    const { clients, password, ...fields } = input;
    const passwordHash = await hashPassword(password);
    try {
      return await this.db.transaction(async (tx) => {
        const issues = await this.checkMemberships(tx, authority, clients, 'USUARIOS.CREATE');
        if (issues.length > 0) throw new AppError('invalid_input', issues);
        const conflicts = await accountConflicts(tx, fields);
        if (conflicts.length > 0) throw duplicateConflict(conflicts);
        const id = await insertAccount(tx, {
          ...fields,
          password_hash: passwordHash,
          rota_clients_id_selected: clients[0]!.rota_clients_id,
        });
        for (const m of clients) await this.deps.userClients.add(tx, { users_id: id, ...m });
        const created = await this.describe(tx, authority, (await findAccount(tx, id))!);
        await this.deps.audit.write(tx, author, {
          action: 'create',
          entity: 'user',
          entity_id: id,
          after: created,
        });
        return created;
      });
    } catch (error) {
      throw await this.writeError(error, fields);
    }
  }

  /**
   * Changes the account and, with `clients`, the user's memberships among the clients the actor
   * may manage (the others are left as they are). The account itself changes only when the actor
   * manages every client of the user (see Authority).
   */
  async update(
    actor: Actor,
    scope: TenantScope,
    input: UserUpdate,
    author: AuditAuthor,
  ): Promise<void> {
    const { id, clients, avatar } = input;
    const { accounts, userClients } = this.deps;
    const authority = await this.authority(this.db, actor);
    // Assigned inside the transaction; typed so the check after it is not narrowed away.
    let dropped = null as string | null;
    try {
      await this.db.transaction(async (tx) => {
        if (!(await accounts.lock(tx, id))) throw notFound();
        const target = await findMember(tx, scope, id);
        if (!target) throw notFound();
        const before = await this.describe(tx, authority, target);
        const memberships = await userClients.clientsOf(tx, id);

        const values: AccountValues = {};
        for (const field of ACCOUNT_FIELDS) {
          const value = input[field];
          if (value !== undefined && value !== target[field])
            Object.assign(values, { [field]: value });
        }
        if (avatar === null && target.avatar !== null) {
          values.avatar = null;
          dropped = target.avatar;
        }
        const ownsAccount = authority.ownsAccount(
          target,
          memberships.map((m) => m.rota_clients_id),
          'USUARIOS.UPDATE',
        );
        if (Object.keys(values).length > 0 && !ownsAccount) throw forbidden();
        // Recovery codes are mailed to the email: a key that could move it could reset the
        // password it may not change. An unchanged email (a form sent back whole) passes.
        if (values.email !== undefined && actor.apiKey) throw new AppError('session_required');

        if (clients) {
          // A form sends back memberships it did not touch, some perhaps in clients the actor
          // does not manage: only added or changed ones need the actor's authority.
          const unchanged = (m: UserMembership) =>
            memberships.some(
              (e) => e.rota_clients_id === m.rota_clients_id && e.profiles_id === m.profiles_id,
            );
          const issues = await this.checkMemberships(
            tx,
            authority,
            clients,
            'USUARIOS.UPDATE',
            unchanged,
          );
          if (issues.length > 0) throw new AppError('invalid_input', issues);
        }
        const conflicts = await accountConflicts(tx, values, id);
        if (conflicts.length > 0) throw duplicateConflict(conflicts);

        await updateAccount(tx, id, values);
        if (clients) await this.replaceMemberships(tx, authority, id, memberships, clients);
        // After: as the reader sees it, or null once it left the selected client.
        const changed = await findMember(tx, scope, id);
        await this.deps.audit.write(tx, author, {
          action: 'update',
          entity: 'user',
          entity_id: id,
          before,
          after: changed ? await this.describe(tx, authority, changed) : null,
        });
      });
    } catch (error) {
      throw await this.writeError(error, input);
    }
    if (dropped) await this.avatars.release(dropped, (url) => avatarInUse(this.db, url));
  }

  /**
   * Deletes the account when the actor manages every client of the user; otherwise takes the
   * user out of the selected client only (their last client cannot be taken: 409). Either way
   * the user loses the selected client at their next request; a deleted account's sessions go
   * with it, so its next request is a 401.
   */
  async remove(actor: Actor, scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    if (id === actor.user.users_id) throw invalidField('id', 'cannot_delete_self');
    const authority = await this.authority(this.db, actor);
    const removal = await this.db.transaction(async (tx): Promise<UserRemoval> => {
      const removed = await this.removeIn(tx, authority, scope, id);
      await this.deps.audit.write(tx, author, { action: 'delete', ...removed });
      return removed;
    });
    if (removal.entity === 'user' && removal.before.avatar) {
      await this.avatars.release(removal.before.avatar, (url) => avatarInUse(this.db, url));
    }
  }

  /** The user goes, or only their place in the selected client (see `remove`). */
  private async removeIn(
    tx: Db,
    authority: Authority,
    scope: TenantScope,
    id: number,
  ): Promise<UserRemoval> {
    const { accounts, userClients } = this.deps;
    if (!(await accounts.lock(tx, id))) throw notFound();
    const target = await findMember(tx, scope, id);
    if (!target) throw notFound();
    const memberships = await userClients.clientsOf(tx, id);
    const clientIds = memberships.map((m) => m.rota_clients_id);
    if (authority.ownsAccount(target, clientIds, 'USUARIOS.DELETE')) {
      const before = await this.describe(tx, authority, target);
      await deleteAccount(tx, id);
      return { entity: 'user', entity_id: id, before };
    }
    const here = memberships.find((m) => m.rota_clients_id === scope.clientId)!;
    if (memberships.length <= 1) {
      throw new AppError('conflict', [{ field: 'id', message: 'last_membership' }]);
    }
    const before = (await userClients.find(tx, scope, here.user_clients_id))!;
    await userClients.end(tx, { ...here, users_id: id });
    await accounts.repairSelectedClient(tx, id);
    return { entity: 'user_client', entity_id: here.user_clients_id, before };
  }

  /**
   * An administrator sets someone else's password (no current password asked). Every session
   * of that user ends and their recovery codes stop working.
   */
  async setPasswordOf(
    actor: Actor,
    scope: TenantScope,
    input: UserPasswordSet,
    author: AuditAuthor,
  ): Promise<void> {
    if (!hasPermissions(actor.permissions, ['USUARIOS.UPDATE'])) throw forbidden();
    await this.assertOwnsMember(actor, scope, input.users_id);
    const passwordHash = await hashPassword(input.password);
    const { accounts, auth, audit } = this.deps;
    await this.db.transaction(async (tx) => {
      await accounts.setPassword(tx, input.users_id, passwordHash, input.password_change_required);
      await auth.revokeCredentials(tx, input.users_id);
      await audit.write(tx, author, {
        action: 'password_change',
        entity: 'user',
        entity_id: input.users_id,
        after: { password_change_required: input.password_change_required },
      });
    });
  }

  /**
   * A new picture, for oneself (`targetId` absent or one's own) or, with USUARIOS.UPDATE, for
   * a member of the selected client. The bytes decide the format, not the declared type.
   */
  async setAvatar(
    actor: Actor,
    targetId: number | undefined,
    image: Buffer,
    author: AuditAuthor,
  ): Promise<{ users_id: number; avatar: string }> {
    if (image.length > AVATAR_MAX_BYTES) throw invalidField(AVATAR_FILE_FIELD, 'avatar_too_large');
    const format = sniffImage(image);
    if (!format) throw invalidField(AVATAR_FILE_FIELD, 'avatar_format');

    const usersId = targetId ?? actor.user.users_id;
    if (usersId !== actor.user.users_id) {
      if (!actor.scope || !hasPermissions(actor.permissions, ['USUARIOS.UPDATE']))
        throw forbidden();
      await this.assertOwnsMember(actor, actor.scope, usersId);
    }
    const url = await this.avatars.save(image, format);
    let previous = null as string | null;
    try {
      await this.db.transaction(async (tx) => {
        if (!(await this.deps.accounts.lock(tx, usersId))) throw notFound();
        previous = (await findAccount(tx, usersId))?.avatar ?? null;
        await updateAccount(tx, usersId, { avatar: url });
        await this.deps.audit.write(tx, author, {
          action: 'update',
          entity: 'user',
          entity_id: usersId,
          before: { avatar: previous },
          after: { avatar: url },
        });
      });
    } catch (error) {
      await this.avatars.release(url, (u) => avatarInUse(this.db, u));
      throw error;
    }
    if (previous !== url) {
      await this.avatars.release(previous, (u) => avatarInUse(this.db, u));
    }
    return { users_id: usersId, avatar: url };
  }

  /* ---------- Helpers. ---------- */

  /** A member of the selected client (else 404) whose account the actor may change (else 403). */
  private async assertOwnsMember(actor: Actor, scope: TenantScope, usersId: number) {
    const target = await findMember(this.db, scope, usersId);
    if (!target) throw notFound();
    const authority = await this.authority(this.db, actor);
    const clientIds = (await this.deps.userClients.clientsOf(this.db, usersId)).map(
      (m) => m.rota_clients_id,
    );
    if (!authority.ownsAccount(target, clientIds, 'USUARIOS.UPDATE')) throw forbidden();
    return target;
  }

  private async describe(db: Db, authority: Authority, row: AccountRow): Promise<User> {
    return toUser(
      row,
      await this.deps.userClients.membershipsOf(db, [row.users_id], authority.visibleClients()),
    );
  }

  /**
   * Field errors for memberships the actor may not grant: a client they do not belong to, one
   * where they lack `permission`, or a profile of another client.
   */
  private async checkMemberships(
    db: Db,
    authority: Authority,
    list: readonly UserMembership[],
    permission: Permission,
    unchanged: (m: UserMembership) => boolean = () => false,
  ): Promise<FieldIssue[]> {
    const existing = await this.deps.userClients.existingClients(
      db,
      list.map((m) => m.rota_clients_id),
    );
    const issues: FieldIssue[] = [];
    for (const [i, m] of list.entries()) {
      if (unchanged(m)) continue;
      const clientField = `clients.${i}.rota_clients_id`;
      if (!authority.platformAdmin && !authority.isMember(m.rota_clients_id)) {
        issues.push({ field: clientField, message: 'client_not_member' });
      } else if (!existing.has(m.rota_clients_id)) {
        issues.push({ field: clientField, message: 'invalid_value' });
      } else if (!authority.can(m.rota_clients_id, permission)) {
        issues.push({ field: clientField, message: 'forbidden' });
      } else if (
        !(await this.deps.userClients.profileOfClient(db, m.rota_clients_id, m.profiles_id))
      ) {
        issues.push({ field: `clients.${i}.profiles_id`, message: 'profile_not_found' });
      }
    }
    return issues;
  }

  /**
   * Makes the user's memberships among the clients the actor manages those of `wanted`;
   * memberships in other clients stay. `wanted` was checked to hold only managed clients.
   */
  private async replaceMemberships(
    db: Db,
    authority: Authority,
    usersId: number,
    current: CurrentMemberships,
    wanted: readonly UserMembership[],
  ) {
    const { accounts, userClients } = this.deps;
    const target = new Map(wanted.map((m) => [m.rota_clients_id, m.profiles_id]));
    for (const m of current) {
      if (!authority.can(m.rota_clients_id, 'USUARIOS.UPDATE')) continue;
      const profileId = target.get(m.rota_clients_id);
      if (profileId === undefined) await userClients.end(db, { ...m, users_id: usersId });
      else if (profileId !== m.profiles_id)
        await userClients.setProfile(db, m.user_clients_id, profileId);
    }
    for (const [clientId, profileId] of target) {
      if (!current.some((m) => m.rota_clients_id === clientId)) {
        await userClients.add(db, {
          users_id: usersId,
          rota_clients_id: clientId,
          profiles_id: profileId,
        });
      }
    }
    await accounts.repairSelectedClient(db, usersId);
  }

  /** A write that lost a race: a unique key taken meanwhile, or a profile deleted meanwhile. */
  private async writeError(
    error: unknown,
    values: { email?: string | undefined; access?: string | undefined; id?: number },
  ): Promise<unknown> {
    if (isUniqueViolation(error)) {
      const { email, access } = values;
      return duplicateConflict(await accountConflicts(this.db, { email, access }, values.id));
    }
    if (isForeignKeyViolation(error)) return new AppError('invalid_input');
    return error;
  }
}
