import type {
  ExecutionStatus,
  ListResponse,
  StatusItem,
  StatusItemCategory,
  StatusItemListQuery,
  StatusItemUpdate,
  StatusPaletteEntry,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import {
  ensureStatusItems,
  findStatusItem,
  listStatusItems,
  readPalette,
  statusCategories,
  updateStatusItem,
  type StatusItemRow,
} from './repository.js';

export const toStatusItem = (row: StatusItemRow): StatusItem => ({
  rota_status_items_id: row.rota_status_items_id,
  // The columns hold what the contract allowed in (seeded, or validated on update).
  status: row.status as StatusItem['status'],
  category: row.category as StatusItem['category'],
  label: row.label,
  color: row.color,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/**
 * `/rota/status/item/api/v1` ("configuration items"): one item per execution status and client,
 * edited, never created or deleted by users.
 */
export class StatusItemService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
  ) {}

  /** The list is where items are edited from, so a client missing some gets them here first. */
  async list(scope: TenantScope, query: StatusItemListQuery): Promise<ListResponse<StatusItem>> {
    await ensureStatusItems(this.db, scope);
    return listStatusItems(this.db, scope, query, toStatusItem);
  }

  show(scope: TenantScope, id: number): Promise<StatusItem> {
    return this.showIn(this.db, scope, id);
  }

  async update(
    scope: TenantScope,
    { id, ...changes }: StatusItemUpdate,
    author: AuditAuthor,
  ): Promise<void> {
    await this.audit.recorded(
      author,
      auditOf.changed('status_item', id, (tx) => this.showIn(tx, scope, id)),
      async (tx) => {
        if (!(await updateStatusItem(tx, scope, id, changes))) throw notFound();
      },
    );
  }

  /** Every status's colour, label and category, defaults filling any gap. */
  palette(scope: TenantScope): Promise<StatusPaletteEntry[]> {
    return readPalette(this.db, scope);
  }

  /** The client's category of each status (the dashboard counts robots with it). */
  categories(scope: TenantScope): Promise<Record<ExecutionStatus, StatusItemCategory>> {
    return statusCategories(this.db, scope);
  }

  private async showIn(db: Db, scope: TenantScope, id: number): Promise<StatusItem> {
    const row = await findStatusItem(db, scope, id);
    if (!row) throw notFound();
    return toStatusItem(row);
  }

  /* ---------- Added by group A (clients): a new client's items. ---------- */

  /**
   * A new client's default items, in the transaction that makes the client (provisionClient).
   * Static: the seed makes the first client before any service exists.
   */
  static provisionDefaults(tx: Db, scope: TenantScope): Promise<void> {
    return ensureStatusItems(tx, scope);
  }
}
