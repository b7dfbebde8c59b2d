import {
  EXECUTION_STATUSES,
  type Dashboard,
  type DashboardQuery,
  type ExecutionStatus,
} from '@rota/contract';
import type { TenantScope } from '../../lib/tenant-scope.js';
import type { AgentService } from '../agents/service.js';
import type { ExecutionDaysService } from '../execution-days/service.js';
import type { ExecutionStatsService } from '../executions/execution-stats-service.js';
import { assertDateRange, localDay } from '../../lib/date-range.js';
import type { StatusItemService } from '../status-items/service.js';
import type { TaskService } from '../tasks/service.js';
import type { VmService } from '../vms/service.js';

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

const zeroCounts = () =>
  Object.fromEntries(EXECUTION_STATUSES.map((s) => [s, 0])) as Record<ExecutionStatus, number>;

/**
 * `/dashboard`: robots per category, executions per day, agents, VMs, the robots failing most,
 * and the robots with tasks at risk or breached now.
 */
export class DashboardService {
  constructor(
    private readonly executions: ExecutionStatsService,
    private readonly agents: AgentService,
    private readonly vms: VmService,
    private readonly statusItems: StatusItemService,
    private readonly tasks: TaskService,
    private readonly days: ExecutionDaysService,
  ) {}

  /** `withAgents`: the user may list agents and VMs (AGENTES.LIST); else their counts are left out. */
  async show(scope: TenantScope, query: DashboardQuery, withAgents = true): Promise<Dashboard> {
    assertDateRange(query);
    const range = { from: midnight(query.startDate), to: midnight(query.endDate, 1) };
    // The client's status items say which category each status counts in (the defaults where they say nothing).
    const categoryOf = await this.statusItems.categories(scope);
    const failures = EXECUTION_STATUSES.filter((s) => categoryOf[s] === 'failure');
    const days = { startDate: query.startDate, endDate: query.endDate };
    const [latest, perDay, failing, agentCounts, vms, taskSla, stalled] = await Promise.all([
      // Each robot's latest execution in the range (none: Idle).
      this.executions.latestStatusCounts(scope, range),
      // From the counted days; when they are not counted in this server's zone, from the runs.
      this.days
        .countsPerDay(scope, days)
        .then((rows) => rows ?? this.executions.countsPerDay(scope, range, this.days.zone)),
      this.days
        .mostFailing(scope, days, failures)
        .then((rows) => rows ?? this.executions.mostFailing(scope, range, failures)),
      withAgents ? this.agents.count(scope) : null,
      withAgents ? this.vms.count(scope) : null,
      // Now, whatever the range: a deadline is at risk or breached at this moment.
      this.tasks.slaCounts(scope),
      this.executions.stalledCount(scope),
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
    return {
      categories,
      per_day: [...byDay].map(([day, counts]) => ({ day, counts })),
      ...(agentCounts && vms
        ? {
            agents: {
              active: agentCounts.active,
              inactive: agentCounts.total - agentCounts.active,
            },
            vms,
          }
        : {}),
      failing_robots: failing.map((f) => ({
        rota_robots_id: f.id,
        rota_robots_name: f.name,
        failures: f.failures,
        executions: f.executions,
      })),
      totals: { executions, robots },
      task_sla: taskSla,
      stalled,
    };
  }
}
