import type {
  ListResponse,
  StatusItem,
  StatusItemListQuery,
  StatusItemUpdate,
  StatusPaletteEntry,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import {
  ensureStatusItems,
  findStatusItem,
  listStatusItems,
  readPalette,
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
  constructor(private readonly db: Db) {}

  /** The list is where items are edited from, so a client missing some gets them here first. */
  async list(scope: TenantScope, query: StatusItemListQuery): Promise<ListResponse<StatusItem>> {
    await ensureStatusItems(this.db, scope);
    return listStatusItems(this.db, scope, query, toStatusItem);
  }

  async show(scope: TenantScope, id: number): Promise<StatusItem> {
    const row = await findStatusItem(this.db, scope, id);
    if (!row) throw notFound();
    return toStatusItem(row);
  }

  async update(scope: TenantScope, { id, ...changes }: StatusItemUpdate): Promise<void> {
    if (!(await updateStatusItem(this.db, scope, id, changes))) throw notFound();
  }

  /** Every status's colour, label and category, defaults filling any gap. */
  palette(scope: TenantScope): Promise<StatusPaletteEntry[]> {
    return readPalette(this.db, scope);
  }
}
