import { z } from 'zod';
import {
  boundedIntSchema,
  idSchema,
  requiredIdSchema,
  listQuerySchema,
  requiredTextSchema,
} from './common.js';
import { msg } from './messages.js';

export const SCHEDULING_LIMITS = {
  interval_minutes: { min: 1, max: 525600 },
  timeout_minutes: { min: 1, max: 1440 },
  retries: { min: 0, max: 10 },
  priority: { min: 1, max: 100 },
  sleep: { min: 0, max: 86400 },
} as const;

export const DELETED_FILTERS = ['not_deleted', 'deleted', 'all'] as const;
export type DeletedFilter = (typeof DELETED_FILTERS)[number];

const vmRef = z.object({ rota_vms_id: z.number().int(), name: z.string() });

/** When and where a robot runs. Deleting is soft; `restore` brings one back. */
export const schedulingSchema = z.object({
  rota_schedulings_id: z.number().int(),
  name: z.string(),
  rota_robots_id: z.number().int(),
  rota_robots_name: z.string(),
  interval_minutes: z.number().int(),
  timeout_minutes: z.number().int(),
  retries: z.number().int(),
  priority: z.number().int(),
  sleep: z.number().int(),
  active: z.boolean(),
  vms: z.array(vmRef),
  deleted_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Scheduling = z.infer<typeof schedulingSchema>;

const L = SCHEDULING_LIMITS;
const schedulingFields = {
  name: requiredTextSchema(120, 'required_name'),
  rota_robots_id: requiredIdSchema('required_robot'),
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
};

export const schedulingCreateSchema = z.object({
  ...schedulingFields,
  retries: schedulingFields.retries.default(0),
  priority: schedulingFields.priority.default(50),
  sleep: schedulingFields.sleep.default(0),
  active: schedulingFields.active.default(true),
  vms: schedulingFields.vms.default([]),
});
export type SchedulingCreate = z.infer<typeof schedulingCreateSchema>;

export const schedulingUpdateSchema = z.object({
  id: idSchema,
  name: schedulingFields.name.optional(),
  rota_robots_id: schedulingFields.rota_robots_id.optional(),
  interval_minutes: schedulingFields.interval_minutes.optional(),
  timeout_minutes: schedulingFields.timeout_minutes.optional(),
  retries: schedulingFields.retries.optional(),
  priority: schedulingFields.priority.optional(),
  sleep: schedulingFields.sleep.optional(),
  active: schedulingFields.active.optional(),
  vms: schedulingFields.vms.optional(),
});
export type SchedulingUpdate = z.infer<typeof schedulingUpdateSchema>;

export const schedulingListQuerySchema = listQuerySchema.extend({
  sort: z
    .enum(['name', 'interval_minutes', 'priority', 'created_at', 'deleted_at'])
    .default('name'),
  deleted: z.enum(DELETED_FILTERS, { error: msg('invalid_value') }).default('not_deleted'),
  rota_robots_id: idSchema.optional(),
  active: z.boolean({ error: msg('invalid_value') }).optional(),
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
