import type { FastifyRequest } from 'fastify';
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

type AuditRow = Awaited<ReturnType<typeof listAuditLogs>>['rows'][number];

const toAuditLog = (row: AuditRow): AuditLog => ({
  ...row,
  before: row.before ?? null,
  after: row.after ?? null,
  created_at: row.created_at.toISOString(),
});

/**
 * The audit log: every create, update, delete and sign-in, written by the route that did it
 * (after the service succeeded) and read per client. Rows are append-only in the database.
 */
export class AuditService {
  constructor(private readonly db: Db) {}

  async record(request: FastifyRequest, entry: AuditEntry): Promise<void> {
    const actor = request.actor;
    const who = entry.user ?? actor?.user;
    try {
      await insertAuditLog(this.db, {
        rota_clients_id:
          entry.clientId !== undefined ? entry.clientId : (actor?.scope?.clientId ?? null),
        users_id: who?.users_id ?? null,
        user_name: who ? `${who.name} ${who.last_name}`.trim() : null,
        action: entry.action,
        entity: entry.entity,
        entity_id:
          entry.entity_id === undefined || entry.entity_id === null
            ? null
            : String(entry.entity_id),
        before: redact(entry.before),
        after: redact(entry.after),
        ip: request.ip,
        request_id: request.id,
      });
    } catch (error) {
      // The change itself succeeded; losing its record is logged loudly rather than undoing it.
      request.log.error(
        { err: error, audit: { action: entry.action, entity: entry.entity } },
        'audit record failed',
      );
    }
  }

  async list(scope: TenantScope, query: AuditLogListQuery): Promise<ListResponse<AuditLog>> {
    assertDateRange(query);
    const { rows, total } = await listAuditLogs(this.db, scope, query);
    return { data: rows.map(toAuditLog), meta: listMeta(query, total) };
  }
}
