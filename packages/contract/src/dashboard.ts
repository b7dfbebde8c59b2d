import { z } from 'zod';
import { isoDateSchema } from './common.js';
import { DASHBOARD_CATEGORIES, EXECUTION_STATUSES } from './execution-statuses.js';

/** `POST /api/rota/dashboard/api/v1/index`: inclusive days, the end not after today. */
export const dashboardQuerySchema = z.object({
  startDate: isoDateSchema,
  endDate: isoDateSchema,
});
export type DashboardQuery = z.infer<typeof dashboardQuerySchema>;

export const dashboardSchema = z.object({
  /** Robots per category: a robot counts in the category of its latest execution in the range. */
  categories: z.object(
    Object.fromEntries(DASHBOARD_CATEGORIES.map((c) => [c, z.number().int()])) as Record<
      (typeof DASHBOARD_CATEGORIES)[number],
      z.ZodNumber
    >,
  ),
  /** Executions per day (queued that day) by status; every day of the range is present. */
  per_day: z.array(
    z.object({
      day: z.string(),
      counts: z.object(
        Object.fromEntries(EXECUTION_STATUSES.map((s) => [s, z.number().int()])) as Record<
          (typeof EXECUTION_STATUSES)[number],
          z.ZodNumber
        >,
      ),
    }),
  ),
  /** Left out for a user without AGENTES.LIST: what they may not list, they do not count. */
  agents: z.object({ active: z.number().int(), inactive: z.number().int() }).optional(),
  /** Left out for a user without AGENTES.LIST, as `agents`. */
  vms: z
    .object({ total: z.number().int(), active: z.number().int(), inactive: z.number().int() })
    .optional(),
  /** Robots with the most failed executions in the range, most first (at most 5). */
  failing_robots: z.array(
    z.object({
      rota_robots_id: z.number().int(),
      rota_robots_name: z.string(),
      failures: z.number().int(),
      executions: z.number().int(),
    }),
  ),
  totals: z.object({ executions: z.number().int(), robots: z.number().int() }),
  /** Runs processing now that are flagged stalled (no activity for their robot's stall_minutes). */
  stalled: z.number().int(),
  /** Robots with unfinished tasks at risk or past their deadline now, most breached first. */
  task_sla: z.array(
    z.object({
      rota_robots_id: z.number().int(),
      rota_robots_name: z.string(),
      at_risk: z.number().int(),
      breached: z.number().int(),
    }),
  ),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

export const dashboardResponseSchema = z.object({ data: dashboardSchema });
