import { sql, type SQL } from 'drizzle-orm';
import {
  AGENT_ACTIVE_WINDOW_SECONDS,
  EXECUTION_STATUSES,
  type Dashboard,
  type DashboardQuery,
  type ExecutionStatus,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { rowsOf } from '../engine/sql-rows.js';
import { assertDateRange, localDay } from '../../lib/date-range.js';
import type { StatusItemService } from '../status-items/service.js';
import type { VmService } from '../vms/service.js';

/** The server's time zone (DESIGN §4: days are read in TZ), for grouping by day in SQL. */
const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

function midnight(day: string, offset = 0): Date {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y!, m! - 1, d! + offset);
}

function daysOf(startDate: string, endDate: string): string[] {
  const days: string[] = [];
  for (let i = 0; ; i += 1) {
    const day = localDay(midnight(startDate, i));
    if (day > endDate) return days;
    days.push(day);
  }
}

/** The team condition on a robot id column of these raw queries (`true` when all are visible). */
function visibleRobots(scope: TenantScope, column: SQL): SQL {
  const ids = scope.robotIds;
  if (!ids) return sql`true`;
  if (ids.length === 0) return sql`false`;
  return sql`${column} in (${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )})`;
}

const zeroCounts = () =>
  Object.fromEntries(EXECUTION_STATUSES.map((s) => [s, 0])) as Record<ExecutionStatus, number>;

/** `/dashboard`: robots per category, executions per day, agents, VMs, the robots failing most. */
export class DashboardService {
  constructor(
    private readonly db: Db,
    private readonly vms: VmService,
    private readonly statusItems: StatusItemService,
  ) {}

  async show(scope: TenantScope, query: DashboardQuery): Promise<Dashboard> {
    assertDateRange(query);
    const from = midnight(query.startDate);
    const to = midnight(query.endDate, 1);
    const client = scope.clientId;
    // The client's status items say which category each status counts in (DESIGN §6 defaults).
    const categoryOf = await this.statusItems.categories(scope);
    const failures = EXECUTION_STATUSES.filter((s) => categoryOf[s] === 'failure');
    // `in (null)` matches nothing: a client may file no status under Failure.
    const failureValues = failures.length ? failures.map((s) => sql`${s}`) : [sql`null`];

    const [latest, perDay, failing, agents, vms] = await Promise.all([
      // Each robot's latest execution in the range (none: Idle).
      rowsOf<{ status: ExecutionStatus | null; robots: number }>(
        this.db,
        sql`select l.status, count(*)::int as robots
              from rota_robots r
              left join lateral (
                select e.status from rota_executions e
                 where e.rota_robots_id = r.rota_robots_id
                   and e.queued_at >= ${from} and e.queued_at < ${to}
                 order by e.queued_at desc limit 1) l on true
             where r.rota_clients_id = ${client} and ${visibleRobots(scope, sql`r.rota_robots_id`)}
             group by l.status`,
      ),
      rowsOf<{ day: string; status: ExecutionStatus; n: number }>(
        this.db,
        sql`select to_char(e.queued_at at time zone ${TIME_ZONE}, 'YYYY-MM-DD') as day,
                   e.status, count(*)::int as n
              from rota_executions e
             where e.rota_clients_id = ${client} and ${visibleRobots(scope, sql`e.rota_robots_id`)}
               and e.queued_at >= ${from} and e.queued_at < ${to}
             group by 1, 2`,
      ),
      rowsOf<{ id: number; name: string; failures: number; executions: number }>(
        this.db,
        sql`select r.rota_robots_id as id, r.name,
                   count(*) filter (where e.status in (${sql.join(
                     failureValues,
                     sql`, `,
                   )}))::int as failures,
                   count(*)::int as executions
              from rota_executions e
              join rota_robots r on r.rota_robots_id = e.rota_robots_id
             where e.rota_clients_id = ${client} and ${visibleRobots(scope, sql`e.rota_robots_id`)}
               and e.queued_at >= ${from} and e.queued_at < ${to}
             group by r.rota_robots_id, r.name
            having count(*) filter (where e.status in (${sql.join(failureValues, sql`, `)})) > 0
             order by failures desc, r.name
             limit 5`,
      ),
      rowsOf<{ active: number; total: number }>(
        this.db,
        sql`select count(*) filter (where last_seen_at > now() - make_interval(secs => ${AGENT_ACTIVE_WINDOW_SECONDS}))::int as active,
                   count(*)::int as total
              from rota_nodes where rota_clients_id = ${client}`,
      ),
      this.vms.count(scope),
    ]);

    const categories = { process: 0, failure: 0, others: 0, idle: 0 };
    let robots = 0;
    for (const row of latest) {
      robots += row.robots;
      categories[row.status ? categoryOf[row.status] : 'idle'] += row.robots;
    }
    const byDay = new Map(daysOf(query.startDate, query.endDate).map((d) => [d, zeroCounts()]));
    let executions = 0;
    for (const row of perDay) {
      const counts = byDay.get(row.day);
      if (!counts) continue;
      counts[row.status] += row.n;
      executions += row.n;
    }
    const agentCounts = agents[0] ?? { active: 0, total: 0 };
    return {
      categories,
      per_day: [...byDay].map(([day, counts]) => ({ day, counts })),
      agents: { active: agentCounts.active, inactive: agentCounts.total - agentCounts.active },
      vms,
      failing_robots: failing.map((f) => ({
        rota_robots_id: f.id,
        rota_robots_name: f.name,
        failures: f.failures,
        executions: f.executions,
      })),
      totals: { executions, robots },
    };
  }
}
