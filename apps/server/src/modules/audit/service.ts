import type { AuditAction, AuditLog, AuditLogListQuery, ListResponse } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { assertDateRange } from '../../lib/date-range.js';
import { listMeta } from '../../lib/pagination.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { insertAuditLog, listAuditLogs } from './repository.js';
import { redact } from './redact.js';

export interface AuditEntry {
  action: AuditAction;
  /** What was touched, singular snake_case: `robot`, `user`, `status_item`. */
  entity: string;
  entity_id?: number | string | null;
  before?: unknown;
  after?: unknown;
  /** The client the record belongs to; defaults to the actor's selected client. */
  clientId?: number | null;
  /** Who acted, when there is no session yet (sign-in). */
  user?: { users_id: number; name: string; last_name: string };
}

/**
 * Who made a change and from where: what its record says about its author. Routes build it from
 * the request (`authorOf` in http/auth.ts) and hand it to the service that makes the change.
 */
export interface AuditAuthor {
  user: { users_id: number; name: string; last_name: string } | null;
  /** The client records belong to unless an entry says otherwise (the selected client). */
  clientId: number | null;
  ip: string;
  requestId: string;
  /** The personal API key the user acted with; absent or null: a session. */
  apiKeyName?: string | null;
  /** Who acted when no user did: a run trigger (`trigger:<name>`). */
  userName?: string;
}

/** What a recorded change says of its row; `before`/`after` are read inside the transaction. */
export interface RecordedChange<T> {
  action: AuditAction;
  entity: string;
  /** The row's id, or how to tell it from what the change answered (a created row). */
  entity_id?: number | string | null | ((result: T) => number | string | null);
  /** The row as its readers see it before the change (null: it did not exist). */
  before?: (tx: Db) => Promise<unknown>;
  /** The row after the change (null or absent: it is gone). */
  after?: (tx: Db, result: T) => Promise<unknown>;
  clientId?: number | null;
}

type AuditRow = Awaited<ReturnType<typeof listAuditLogs>>['rows'][number];

const toAuditLog = (row: AuditRow): AuditLog => ({
  ...row,
  before: row.before ?? null,
  after: row.after ?? null,
  created_at: row.created_at.toISOString(),
});

/**
 * The audit log: every create, update, delete and sign-in, written by the service that made the
 * change in that change's transaction, and read per client. Rows are append-only in the database.
 */
/**
 * The three ways one row's change is recorded, the row as `read` answers it inside the
 * transaction (what `show` answers, so never a secret): created (after: the row the change
 * answered), changed (before and after) and deleted (before only).
 */
export const auditOf = {
  created<T>(entity: string, idOf: (row: T) => number | string): RecordedChange<T> {
    return { action: 'create', entity, entity_id: idOf, after: async (_tx, row) => row };
  },
  changed(
    entity: string,
    id: number,
    read: (tx: Db) => Promise<unknown>,
    action: AuditAction = 'update',
  ): RecordedChange<unknown> {
    return { action, entity, entity_id: id, before: read, after: (tx) => read(tx) };
  },
  deleted(entity: string, id: number, read: (tx: Db) => Promise<unknown>): RecordedChange<unknown> {
    return { action: 'delete', entity, entity_id: id, before: read };
  },
};

export class AuditService {
  constructor(private readonly db: Db) {}

  /**
   * Writes one record with `tx`, the transaction of the change it records: both land or
   * neither. A failure is the change's failure (it rolls back), never swallowed.
   */
  async write(tx: Db, author: AuditAuthor, entry: AuditEntry): Promise<void> {
    const who = entry.user ?? author.user;
    await insertAuditLog(tx, {
      rota_clients_id: entry.clientId !== undefined ? entry.clientId : author.clientId,
      users_id: who?.users_id ?? null,
      user_name: who ? `${who.name} ${who.last_name}`.trim() : (author.userName ?? null),
      api_key_name: author.apiKeyName ?? null,
      action: entry.action,
      entity: entry.entity,
      entity_id:
        entry.entity_id === undefined || entry.entity_id === null ? null : String(entry.entity_id),
      before: redact(entry.before),
      after: redact(entry.after),
      ip: author.ip,
      request_id: author.requestId,
    });
  }

  /**
   * `change` and its record in one transaction, with the row read before and after it inside
   * that transaction (so the record says exactly what the change did). Everything `change` and
   * the readers do must go through the `tx` they are handed: on the embedded database a query
   * on the outer connection would wait for this transaction forever.
   */
  async recorded<T>(
    author: AuditAuthor,
    what: RecordedChange<T>,
    change: (tx: Db) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction(async (tx) => {
      const before = what.before ? await what.before(tx) : undefined;
      const result = await change(tx);
      const after = what.after ? await what.after(tx, result) : undefined;
      const id = typeof what.entity_id === 'function' ? what.entity_id(result) : what.entity_id;
      await this.write(tx, author, {
        action: what.action,
        entity: what.entity,
        entity_id: id ?? null,
        before,
        after,
        ...(what.clientId !== undefined ? { clientId: what.clientId } : {}),
      });
      return result;
    });
  }

  async list(scope: TenantScope, query: AuditLogListQuery): Promise<ListResponse<AuditLog>> {
    assertDateRange(query);
    const { rows, total } = await listAuditLogs(this.db, scope, query);
    return { data: rows.map(toAuditLog), meta: listMeta(query, total) };
  }
}
