import { z } from 'zod';
import {
  boundedIntSchema,
  idSchema,
  requiredIdSchema,
  listQuerySchema,
  requiredTextSchema,
} from './common.js';
import { labelListSchema, labelsSchema } from './labels.js';
import { msg } from './messages.js';

export const SCHEDULING_LIMITS = {
  interval_minutes: { min: 1, max: 525600 },
  timeout_minutes: { min: 1, max: 1440 },
  retries: { min: 0, max: 10 },
  priority: { min: 1, max: 100 },
  sleep: { min: 0, max: 86400 },
  min_pending: { min: 1, max: 100000 },
  max_concurrent: { min: 1, max: 100 },
} as const;

/** What starts a scheduling's runs: every N minutes, a cron expression, or pending tasks. */
export const SCHEDULING_TRIGGERS = ['interval', 'cron', 'queue'] as const;
export type SchedulingTrigger = (typeof SCHEDULING_TRIGGERS)[number];

/** What a run missed while no server was up becomes: one late run, or none. */
export const MISSED_RUNS = ['run_once', 'skip'] as const;
export type MissedRuns = (typeof MISSED_RUNS)[number];

/** An IANA time zone this runtime knows (`America/Sao_Paulo`, `UTC`). */
export function isTimeZone(value: string): boolean {
  if (!value || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const timeZoneSchema = z
  .string({ error: msg('invalid_time_zone') })
  .trim()
  .refine(isTimeZone, msg('invalid_time_zone'));

/**
 * Five fields (minute hour day-of-month month day-of-week); whether each field means something
 * is the server's cron library's call (it answers `invalid_cron` on the field).
 */
export const cronSchema = z
  .string({ error: msg('required_cron') })
  .trim()
  .min(1, msg('required_cron'))
  .max(200, msg('too_long'))
  .refine((v) => v.split(/\s+/).length === 5, msg('invalid_cron'));

export const DELETED_FILTERS = ['not_deleted', 'deleted', 'all'] as const;
export type DeletedFilter = (typeof DELETED_FILTERS)[number];

const vmRef = z.object({ rota_vms_id: z.number().int(), name: z.string() });

/** When and where a robot runs. Deleting is soft; `restore` brings one back. */
export const schedulingSchema = z.object({
  rota_schedulings_id: z.number().int(),
  name: z.string(),
  rota_robots_id: z.number().int(),
  rota_robots_name: z.string(),
  trigger_type: z.enum(SCHEDULING_TRIGGERS),
  /** Read by `interval` only; the others keep the last one set. */
  interval_minutes: z.number().int(),
  cron: z.string().nullable(),
  time_zone: z.string().nullable(),
  missed_runs: z.enum(MISSED_RUNS),
  rota_calendars_id: z.number().int().nullable(),
  min_pending: z.number().int(),
  max_concurrent: z.number().int(),
  /** ISO 8601 with offset; null when inactive, deleted, a `queue` trigger, or never again. */
  next_run_at: z.string().nullable(),
  timeout_minutes: z.number().int(),
  retries: z.number().int(),
  priority: z.number().int(),
  sleep: z.number().int(),
  active: z.boolean(),
  vms: z.array(vmRef),
  /** Labels its runs need beside the robot's required ones. */
  labels: labelListSchema,
  deleted_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Scheduling = z.infer<typeof schedulingSchema>;

const L = SCHEDULING_LIMITS;
const schedulingFields = {
  name: requiredTextSchema(120, 'required_name'),
  rota_robots_id: requiredIdSchema('required_robot'),
  trigger_type: z.enum(SCHEDULING_TRIGGERS, { error: msg('invalid_value') }),
  cron: cronSchema.nullable(),
  time_zone: timeZoneSchema.nullable(),
  missed_runs: z.enum(MISSED_RUNS, { error: msg('invalid_value') }),
  rota_calendars_id: idSchema.nullable(),
  min_pending: boundedIntSchema(L.min_pending.min, L.min_pending.max),
  max_concurrent: boundedIntSchema(L.max_concurrent.min, L.max_concurrent.max),
  interval_minutes: boundedIntSchema(
    L.interval_minutes.min,
    L.interval_minutes.max,
    'required_interval',
  ),
  timeout_minutes: boundedIntSchema(
    L.timeout_minutes.min,
    L.timeout_minutes.max,
    'required_timeout',
  ),
  retries: boundedIntSchema(L.retries.min, L.retries.max),
  priority: boundedIntSchema(L.priority.min, L.priority.max),
  sleep: boundedIntSchema(L.sleep.min, L.sleep.max),
  active: z.boolean({ error: msg('invalid_value') }),
  vms: z.array(idSchema).max(500, msg('too_long')),
  labels: labelsSchema,
};

/**
 * The fields each trigger needs; the server checks the same on the merged row of an update.
 * `time_zone` left out means the server's (`TZ`).
 */
export const schedulingCreateSchema = z
  .object({
    ...schedulingFields,
    trigger_type: schedulingFields.trigger_type.default('interval'),
    interval_minutes: schedulingFields.interval_minutes.optional(),
    cron: schedulingFields.cron.optional(),
    time_zone: schedulingFields.time_zone.optional(),
    missed_runs: schedulingFields.missed_runs.default('run_once'),
    rota_calendars_id: schedulingFields.rota_calendars_id.optional(),
    min_pending: schedulingFields.min_pending.default(1),
    max_concurrent: schedulingFields.max_concurrent.default(1),
    retries: schedulingFields.retries.default(0),
    priority: schedulingFields.priority.default(50),
    sleep: schedulingFields.sleep.default(0),
    active: schedulingFields.active.default(true),
    vms: schedulingFields.vms.default([]),
    labels: schedulingFields.labels.default([]),
  })
  // `when`: said beside the other fields' errors, not only once they are all right.
  .refine((v) => v.trigger_type !== 'interval' || v.interval_minutes !== undefined, {
    path: ['interval_minutes'],
    error: msg('required_interval'),
    when: () => true,
  })
  .refine((v) => v.trigger_type !== 'cron' || Boolean(v.cron), {
    path: ['cron'],
    error: msg('required_cron'),
    when: () => true,
  });
export type SchedulingCreate = z.infer<typeof schedulingCreateSchema>;

export const schedulingUpdateSchema = z.object({
  id: idSchema,
  name: schedulingFields.name.optional(),
  rota_robots_id: schedulingFields.rota_robots_id.optional(),
  trigger_type: schedulingFields.trigger_type.optional(),
  interval_minutes: schedulingFields.interval_minutes.optional(),
  cron: schedulingFields.cron.optional(),
  time_zone: schedulingFields.time_zone.optional(),
  missed_runs: schedulingFields.missed_runs.optional(),
  rota_calendars_id: schedulingFields.rota_calendars_id.optional(),
  min_pending: schedulingFields.min_pending.optional(),
  max_concurrent: schedulingFields.max_concurrent.optional(),
  timeout_minutes: schedulingFields.timeout_minutes.optional(),
  retries: schedulingFields.retries.optional(),
  priority: schedulingFields.priority.optional(),
  sleep: schedulingFields.sleep.optional(),
  active: schedulingFields.active.optional(),
  vms: schedulingFields.vms.optional(),
  labels: schedulingFields.labels.optional(),
});
export type SchedulingUpdate = z.infer<typeof schedulingUpdateSchema>;

/** The next five runs a scheduling would queue, as the user types it. */
export const schedulingPreviewSchema = z.object({
  trigger_type: schedulingFields.trigger_type.default('interval'),
  cron: schedulingFields.cron.optional(),
  time_zone: schedulingFields.time_zone.optional(),
  interval_minutes: schedulingFields.interval_minutes.optional(),
  rota_calendars_id: schedulingFields.rota_calendars_id.optional(),
});
export type SchedulingPreview = z.infer<typeof schedulingPreviewSchema>;

export const schedulingPreviewResultSchema = z.object({ next: z.array(z.string()) });
export type SchedulingPreviewResult = z.infer<typeof schedulingPreviewResultSchema>;

export const schedulingListQuerySchema = listQuerySchema.extend({
  sort: z
    .enum(['name', 'interval_minutes', 'priority', 'next_run_at', 'created_at', 'deleted_at'])
    .default('name'),
  deleted: z.enum(DELETED_FILTERS, { error: msg('invalid_value') }).default('not_deleted'),
  rota_robots_id: idSchema.optional(),
  active: z.boolean({ error: msg('invalid_value') }).optional(),
  trigger_type: z.enum(SCHEDULING_TRIGGERS, { error: msg('invalid_value') }).optional(),
  rota_calendars_id: idSchema.optional(),
});
export type SchedulingListQuery = z.infer<typeof schedulingListQuerySchema>;

/** /rota/scheduling/vms/api/v1: one VM a scheduling may run on. */
export const schedulingVmSchema = z.object({
  rota_scheduling_vms_id: z.number().int(),
  rota_schedulings_id: z.number().int(),
  rota_vms_id: z.number().int(),
  name: z.string(),
  hostname: z.string(),
});
export type SchedulingVm = z.infer<typeof schedulingVmSchema>;

export const schedulingVmCreateSchema = z.object({
  rota_schedulings_id: requiredIdSchema('invalid_value'),
  rota_vms_id: requiredIdSchema('required_vm'),
});
export type SchedulingVmCreate = z.infer<typeof schedulingVmCreateSchema>;

export const schedulingVmListQuerySchema = listQuerySchema.extend({
  rota_schedulings_id: idSchema,
  sort: z.enum(['name']).default('name'),
});
export type SchedulingVmListQuery = z.infer<typeof schedulingVmListQuerySchema>;
