import {
  API_KEY_PREFIX,
  hasPermissions,
  type ApiKey,
  type ApiKeyCreate,
  type ApiKeyListQuery,
  type ApiKeyWithSecret,
  type ListResponse,
  type Permission,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import type { Actor, SessionUser } from '../../http/types.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, forbidden, notFound, type FieldIssue } from '../../lib/errors.js';
import { iso, isoOrNull } from '../../lib/list-query.js';
import { generateToken, hashToken } from '../../lib/tokens.js';
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import {
  findApiKey,
  findApiKeyByHash,
  insertApiKey,
  listApiKeys,
  revokeApiKey,
  touchApiKey,
  type ApiKeyRow,
} from './repository.js';

/** `last_used_at` is written at most once this long per key. */
const TOUCH_EVERY_MS = 60_000;

export const toApiKey = (row: ApiKeyRow): ApiKey => ({
  user_api_keys_id: row.user_api_keys_id,
  users_id: row.users_id,
  user_name: row.user_name,
  name: row.name,
  key_hint: row.key_hint,
  permissions: (row.permissions as Permission[] | null) ?? null,
  expires_at: isoOrNull(row.expires_at),
  last_used_at: isoOrNull(row.last_used_at),
  revoked_at: isoOrNull(row.revoked_at),
  created_at: iso(row.created_at),
});

/** What a request made with a key acts as; http/auth.ts builds the Actor (and its scope). */
export interface KeyIdentity {
  apiKey: { id: number; name: string };
  user: SessionUser;
  clientId: number;
  teamRobotIds: number[] | null;
  /** The user's current permissions in the key's client, narrowed to the key's. */
  permissions: Permission[];
}

function clientOf(actor: Actor): number {
  if (!actor.scope) throw forbidden();
  return actor.scope.clientId;
}

/**
 * Personal API keys: a user's bearer secret for one client, acting as that user
 * with at most the permissions named at creation (null: all of the user's, at each use). The key
 * is answered once; only its SHA-256 is stored.
 */
export class ApiKeyService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  /** The caller's keys in the selected client; `all` (USUARIOS.LIST) every member's. */
  list(actor: Actor, query: ApiKeyListQuery): Promise<ListResponse<ApiKey>> {
    const clientId = clientOf(actor);
    if (query.all && !hasPermissions(actor.permissions, ['USUARIOS.LIST'])) throw forbidden();
    return listApiKeys(this.db, clientId, query.all ? null : actor.user.users_id, query, toApiKey);
  }

  async create(actor: Actor, input: ApiKeyCreate, author: AuditAuthor): Promise<ApiKeyWithSecret> {
    const clientId = clientOf(actor);
    const issues: FieldIssue[] = [];
    for (const [index, permission] of (input.permissions ?? []).entries()) {
      if (!actor.permissions.includes(permission)) {
        issues.push({ field: `permissions.${index}`, message: 'permission_not_held' });
      }
    }
    const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
    if (expiresAt && expiresAt <= this.clock.now()) {
      issues.push({ field: 'expires_at', message: 'expires_in_past' });
    }
    if (issues.length > 0) throw new AppError('invalid_input', issues);
    const key = `${API_KEY_PREFIX}${generateToken(32)}`;
    const created = await this.audit.recorded(
      author,
      auditOf.created('api_key', (k: ApiKey) => k.user_api_keys_id),
      async (tx) =>
        this.showIn(
          tx,
          clientId,
          await insertApiKey(tx, {
            users_id: actor.user.users_id,
            rota_clients_id: clientId,
            name: input.name,
            key_hash: hashToken(key),
            key_hint: key.slice(-4),
            permissions: input.permissions ?? null,
            expires_at: expiresAt,
          }),
        ),
    );
    return { ...created, key };
  }

  /** One's own key, or any key of the client with USUARIOS.UPDATE; anything else is absent. */
  async revoke(actor: Actor, id: number, author: AuditAuthor): Promise<void> {
    const clientId = clientOf(actor);
    const anyone = hasPermissions(actor.permissions, ['USUARIOS.UPDATE']);
    await this.audit.recorded(
      author,
      auditOf.changed('api_key', id, (tx) => this.showIn(tx, clientId, id), 'revoke'),
      async (tx) => {
        const owner = anyone ? null : actor.user.users_id;
        if (!(await revokeApiKey(tx, clientId, id, owner))) throw notFound();
      },
    );
  }

  /**
   * The identity behind a key, or undefined: unknown, revoked, expired, or its user no longer
   * a member of its client. Notes the use (at most once a minute).
   */
  async identify(key: string): Promise<KeyIdentity | undefined> {
    const row = await findApiKeyByHash(this.db, hashToken(key));
    if (!row || row.revoked_at || row.membership_client_id === null) return undefined;
    if (row.expires_at && row.expires_at <= this.clock.now()) return undefined;
    if (!row.last_used_at || Date.now() - row.last_used_at.getTime() >= TOUCH_EVERY_MS) {
      await touchApiKey(this.db, row.user_api_keys_id);
    }
    const held = (row.permissions ?? []) as Permission[];
    const granted = row.key_permissions as Permission[] | null;
    return {
      apiKey: { id: row.user_api_keys_id, name: row.name },
      // The key's client stands for the selected one: what the user selects in the console
      // does not move a key. A key never carries platform administration (clients, access
      // requests): that is not a permission it could be narrowed by.
      user: {
        ...row.user,
        rota_clients_id_selected: row.rota_clients_id,
        is_platform_admin: false,
      },
      clientId: row.rota_clients_id,
      teamRobotIds: row.team_robot_ids?.map(Number) ?? null,
      permissions: granted ? held.filter((p) => granted.includes(p)) : held,
    };
  }

  private async showIn(db: Db, clientId: number, id: number): Promise<ApiKey> {
    const row = await findApiKey(db, clientId, id);
    if (!row) throw notFound();
    return toApiKey(row);
  }
}
