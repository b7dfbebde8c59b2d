import type {
  AccessRequest,
  AccessRequestCreate,
  AccessRequestListQuery,
  AccessRequestStatus,
  AccessRequestUpdate,
  ListResponse,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../http/types.js';
import { notFound } from '../../lib/errors.js';
import { assertPlatformAdmin } from '../../lib/platform-admin.js';
import { iso } from '../../lib/list-query.js';
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import {
  findAccessRequest,
  insertAccessRequest,
  listAccessRequests,
  setAccessRequestStatus,
  type AccessRequestRow,
} from './access-request-repository.js';

const toAccessRequest = (row: AccessRequestRow): AccessRequest => ({
  access_requests_id: row.access_requests_id,
  name: row.name,
  email: row.email,
  client_name: row.client_name,
  message: row.message,
  status: row.status as AccessRequestStatus,
  ip: row.ip,
  created_at: iso(row.created_at),
});

/**
 * Requests sent from /login/request-access. They name no client the platform knows
 * yet, so only platform administrators review them: dismiss one, or mark it approved once the
 * console has created the user from it.
 */
export class AccessRequestService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
  ) {}

  list(actor: Actor, query: AccessRequestListQuery): Promise<ListResponse<AccessRequest>> {
    assertPlatformAdmin(actor);
    return listAccessRequests(this.db, query, toAccessRequest);
  }

  async show(actor: Actor, id: number): Promise<AccessRequest> {
    assertPlatformAdmin(actor);
    return this.showIn(this.db, id);
  }

  private async showIn(db: Db, id: number): Promise<AccessRequest> {
    const row = await findAccessRequest(db, id);
    if (!row) throw notFound();
    return toAccessRequest(row);
  }

  async update(actor: Actor, input: AccessRequestUpdate, author: AuditAuthor): Promise<void> {
    assertPlatformAdmin(actor);
    await this.audit.recorded(
      author,
      auditOf.changed('access_request', input.id, (tx) => this.showIn(tx, input.id)),
      async (tx) => {
        if (!(await setAccessRequestStatus(tx, input.id, input.status))) throw notFound();
      },
    );
  }

  /** Sent from the sign-in page (public; the auth service counts the address first). */
  async create(input: AccessRequestCreate, ip: string): Promise<void> {
    await insertAccessRequest(this.db, {
      name: input.name,
      email: input.email,
      client_name: input.client_name,
      message: input.message ?? null,
      ip,
    });
  }
}
