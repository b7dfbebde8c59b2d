import type { Permission } from '@rota/contract';
import type { Actor } from '../../http/types.js';

/**
 * What an actor may do to users beyond the selected client. A user is one account shared by
 * every client they belong to, so an administrator of one client must not reach what the user
 * is in another: memberships are granted, changed and removed only in clients where the actor
 * holds the permission, and the account itself (name, email, password, picture, deletion) only
 * when the actor holds it in every client of the user. Platform administrators reach all.
 */
export class Authority {
  constructor(
    readonly platformAdmin: boolean,
    /** The actor's own memberships: client → permissions of the profile held there. */
    private readonly memberships: ReadonlyMap<number, readonly Permission[]>,
  ) {}

  /** From the actor's own memberships (UserClientService.authorityOf reads them). */
  static of(
    actor: Actor,
    grants: readonly { clientId: number; permissions: readonly Permission[] }[],
  ): Authority {
    return new Authority(
      actor.user.is_platform_admin,
      new Map(grants.map((g) => [g.clientId, g.permissions])),
    );
  }

  /** Clients whose memberships the actor may read; null: every client. */
  visibleClients(): number[] | null {
    return this.platformAdmin ? null : [...this.memberships.keys()];
  }

  isMember(clientId: number): boolean {
    return this.memberships.has(clientId);
  }

  can(clientId: number, permission: Permission): boolean {
    return this.platformAdmin || (this.memberships.get(clientId)?.includes(permission) ?? false);
  }

  /**
   * Whether the actor may change or delete the account of a user who belongs to `clientIds`.
   * Only a platform administrator may touch another platform administrator's account.
   */
  ownsAccount(
    target: { is_platform_admin: boolean },
    clientIds: readonly number[],
    permission: Permission,
  ): boolean {
    if (this.platformAdmin) return true;
    if (target.is_platform_admin) return false;
    return clientIds.every((id) => this.can(id, permission));
  }
}
