import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { robotSummaries } from '../robots/views.js';
import { schedulingSummaries } from '../schedulings/views.js';

/** A scheduling's run settings and VMs, with whether its robot is active. */
export async function schedulingToRun(db: Db, scope: TenantScope, schedulingId: number) {
  const s = schedulingSummaries;
  const r = robotSummaries;
  const [row] = await db
    .select({
      rota_robots_id: s.rota_robots_id,
      priority: s.priority,
      timeout_minutes: s.timeout_minutes,
      retries: s.retries,
      sleep: s.sleep,
      deleted: s.deleted,
      vm_ids: s.vm_ids,
      labels: s.labels,
      robot_active: r.active,
      required_labels: r.required_labels,
    })
    .from(s)
    .innerJoin(r, eq(r.rota_robots_id, s.rota_robots_id))
    .where(and(scope.owns(s.rota_clients_id), eq(s.rota_schedulings_id, schedulingId)));
  return row;
}
