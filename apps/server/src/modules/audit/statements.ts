import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditLogs } from '../../db/schema/audit.js';
import { col } from '../../lib/sql-refs.js';
import { rowsOf } from '../../lib/sql-rows.js';

const a = auditLogs;

/**
 * Deletes at most `batch` audit records of the client written before `before` (the caller
 * repeats it until it answers fewer than `batch`); answers how many went. audit_logs refuses
 * UPDATE and DELETE through a row trigger (migration 0007) so that nothing edits history: the
 * retention is the one deletion allowed, said for this transaction only with the setting
 * `rota.audit_retention` the trigger reads (migration 0017; any role may set it, so no
 * superuser is needed). Reads audit_logs_client_created_idx.
 */
export async function pruneAuditRecords(
  db: Db,
  clientId: number,
  before: Date,
  batch: number,
): Promise<number> {
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    await tx.execute(sql`select set_config('rota.audit_retention', 'on', true)`);
    const rows = await rowsOf<{ n: number }>(
      tx,
      sql`with gone as (
            delete from ${a} where ${col(a.audit_logs_id)} in (
              select ${col(a.audit_logs_id)} from ${a}
               where ${col(a.rota_clients_id)} = ${clientId}
                 and ${col(a.created_at)} < ${before.toISOString()}::timestamptz
               limit ${batch})
            returning 1)
          select count(*)::int as n from gone`,
    );
    return rows[0]?.n ?? 0;
  });
}
