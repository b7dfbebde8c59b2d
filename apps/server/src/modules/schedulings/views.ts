import { sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { rotaSchedulings, rotaSchedulingVms } from '../../db/schema/schedulings.js';

const qb = new QueryBuilder();

/** The VMs a scheduling's runs are restricted to (null: any VM of the client). */
export const vmIdsOf = (schedulingId: typeof rotaSchedulings.rota_schedulings_id) =>
  sql<
    number[] | null
  >`(select nullif(array_agg(${rotaSchedulingVms.rota_vms_id} order by ${rotaSchedulingVms.rota_vms_id}), '{}')
      from ${rotaSchedulingVms}
     where ${rotaSchedulingVms.rota_schedulings_id} = ${schedulingId})`;

/**
 * Read-only: a scheduling as its runs, lists and audit records need it (PostgreSQL inlines the
 * view). Writes go through SchedulingService.
 */
export const schedulingSummaries = qb
  .select({
    rota_schedulings_id: rotaSchedulings.rota_schedulings_id,
    rota_clients_id: rotaSchedulings.rota_clients_id,
    rota_robots_id: rotaSchedulings.rota_robots_id,
    name: rotaSchedulings.name,
    priority: rotaSchedulings.priority,
    timeout_minutes: rotaSchedulings.timeout_minutes,
    retries: rotaSchedulings.retries,
    sleep: rotaSchedulings.sleep,
    deleted: sql<boolean>`${rotaSchedulings.deleted_at} is not null`.as('deleted'),
    vm_ids: vmIdsOf(rotaSchedulings.rota_schedulings_id).as('vm_ids'),
    labels: rotaSchedulings.labels,
  })
  .from(rotaSchedulings)
  .as('scheduling_summaries');
