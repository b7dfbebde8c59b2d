import { z } from 'zod';
import {
  boundedIntSchema,
  createdResponseSchema,
  dateRangeFilterShape,
  idSchema,
  requiredIdSchema,
  listQuerySchema,
  optionalTextSchema,
} from './common.js';
import { EXECUTION_STATUSES } from './execution-statuses.js';
import { isIsoDate, isIsoDateTime } from './iso-date.js';
import { msg, type MessageKey } from './messages.js';
import type { RobotFieldType } from './robots.js';

export const TASK_STATUSES = [
  'pending',
  'processing',
  'success',
  'business_error',
  'application_error',
  'expired',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TASK_DEFAULT_PRIORITY = 50;

/**
 * Where a task stands against its deadline: `on_time`, `at_risk` (closer than the robot's
 * `task_risk_minutes`) or `breached` while pending or processing; `met` or `missed` once final.
 * A task without a deadline has none (null).
 */
export const TASK_SLA_STATES = ['on_time', 'at_risk', 'breached', 'met', 'missed'] as const;
export type TaskSlaState = (typeof TASK_SLA_STATES)[number];

/** A work item a robot consumes; `data` follows the robot's fields, when it declares any. */
export const taskSchema = z.object({
  rota_tasks_id: z.number().int(),
  rota_robots_id: z.number().int(),
  rota_robots_name: z.string(),
  label: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  priority: z.number().int(),
  expiration_date: z.string(),
  status: z.enum(TASK_STATUSES),
  business_error: z.string().nullable(),
  attempts: z.number().int(),
  /** When it should be finished (ISO); null: no deadline. */
  deadline: z.string().nullable(),
  /** Not handed to a robot before this instant (ISO); null: at once. */
  postpone_until: z.string().nullable(),
  sla_state: z.enum(TASK_SLA_STATES).nullable(),
  /** When it reached a final status (ISO); null while pending or processing. */
  finished_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Task = z.infer<typeof taskSchema>;

/**
 * The instant an `expiration_date` stands for: a bare day means the end of that day in UTC, so
 * a task due "on the 31st" can still run on the 31st wherever the server is; a date-time without
 * an offset is read in the reader's time zone (the server's `TZ`).
 */
export function expirationInstant(value: string): Date {
  return isIsoDate(value) ? new Date(`${value}T23:59:59.999Z`) : new Date(value);
}

/** ISO 8601 date-time (or a day, meaning its end) for `expiration_date`. */
export const expirationDateSchema = z
  .string({ error: msg('required_expiration_date') })
  .trim()
  .min(1, msg('required_expiration_date'))
  .refine((v) => isIsoDate(v) || isIsoDateTime(v), msg('invalid_date'));

/** An instant for `deadline` and `postpone_until`: an ISO 8601 date-time. */
export const taskInstantSchema = z
  .string({ error: msg('invalid_date') })
  .trim()
  .max(40, msg('invalid_date'))
  .refine(isIsoDateTime, msg('invalid_date'));

/** A task's data: one JSON object (a robot's fields check its keys). */
export const taskDataSchema = z.record(z.string(), z.unknown(), {
  error: msg('invalid_type_json'),
});
const taskData = taskDataSchema;

export const taskCreateSchema = z.object({
  rota_robots_id: requiredIdSchema('required_robot'),
  label: optionalTextSchema(200),
  data: taskData.default({}),
  priority: boundedIntSchema(1, 100).default(TASK_DEFAULT_PRIORITY),
  expiration_date: expirationDateSchema,
  /** Absent: created_at plus the robot's `task_sla_minutes`, when it has one. */
  deadline: taskInstantSchema.nullish(),
  postpone_until: taskInstantSchema.nullish(),
});
export type TaskCreate = z.infer<typeof taskCreateSchema>;

export const taskUpdateSchema = z.object({
  id: idSchema,
  label: optionalTextSchema(200).optional(),
  data: taskData.optional(),
  priority: boundedIntSchema(1, 100).optional(),
  expiration_date: expirationDateSchema.optional(),
  /** null clears it. */
  deadline: taskInstantSchema.nullable().optional(),
  /** null clears it. */
  postpone_until: taskInstantSchema.nullable().optional(),
});
export type TaskUpdate = z.infer<typeof taskUpdateSchema>;

export const taskListQuerySchema = listQuerySchema.extend({
  sort: z
    .enum(['created_at', 'priority', 'expiration_date', 'deadline', 'status', 'label'])
    .default('created_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
  rota_robots_id: idSchema.optional(),
  status: z.enum(TASK_STATUSES, { error: msg('invalid_value') }).optional(),
  sla_state: z.enum(TASK_SLA_STATES, { error: msg('invalid_value') }).optional(),
  /** Tasks this execution held at some point (read from the tasks' history). */
  rota_executions_id: idSchema.optional(),
  ...dateRangeFilterShape,
});
export type TaskListQuery = z.infer<typeof taskListQuerySchema>;

/**
 * One change of a task's status or holder, oldest first. `rota_executions_id` is the
 * run holding it, or the one that just let it go; `execution` is that run while it still exists.
 */
export const taskHistoryEntrySchema = z.object({
  rota_task_history_id: z.number().int(),
  status: z.enum(TASK_STATUSES),
  at: z.string(),
  attempts: z.number().int(),
  business_error: z.string().nullable(),
  rota_executions_id: z.number().int().nullable(),
  execution: z
    .object({
      status: z.enum(EXECUTION_STATUSES),
      rota_nodes_name: z.string().nullable(),
      started_at: z.string().nullable(),
      ended_at: z.string().nullable(),
    })
    .nullable(),
});
export type TaskHistoryEntry = z.infer<typeof taskHistoryEntrySchema>;

export const taskHistoryResponseSchema = z.object({ data: z.array(taskHistoryEntrySchema) });
export type TaskHistoryResponse = z.infer<typeof taskHistoryResponseSchema>;

/** `retry` and `delete_many` answer `{message, data: {count}}`: how many tasks they changed. */
export const taskBulkResponseSchema = createdResponseSchema(z.object({ count: z.number().int() }));

/** What `validateTaskData` needs of a robot field. */
export interface TaskDataField {
  name: string;
  type: RobotFieldType;
  required: boolean;
}

export interface TaskDataIssue {
  /** `data.<name>` */
  field: string;
  message: MessageKey;
}

const typeChecks: Record<RobotFieldType, { ok: (v: unknown) => boolean; message: MessageKey }> = {
  text: { ok: (v) => typeof v === 'string', message: 'invalid_type_text' },
  number: {
    ok: (v) => typeof v === 'number' && Number.isFinite(v),
    message: 'invalid_type_number',
  },
  boolean: { ok: (v) => typeof v === 'boolean', message: 'invalid_type_boolean' },
  date: {
    ok: (v) => typeof v === 'string' && (isIsoDate(v) || isIsoDateTime(v)),
    message: 'invalid_type_date',
  },
  // Whatever JSON parsed into is a JSON value.
  json: { ok: () => true, message: 'invalid_type_json' },
};

/** Absent, null, or blank text: what `required` refuses. */
const isEmpty = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * A task's `data` against its robot's fields: each required field present, each value of its
 * field's type, no key the robot has no field for. Names match exactly, as the robot reads them.
 * A robot that declares no field takes any JSON object, as a queue without a schema does; the
 * request's own bounds (body size, nesting) still apply. Shared by the server and the console's
 * task form.
 */
export function validateTaskData(
  fields: readonly TaskDataField[],
  data: Record<string, unknown>,
): TaskDataIssue[] {
  if (fields.length === 0) return [];
  const issues: TaskDataIssue[] = [];
  const known = new Set(fields.map((f) => f.name));
  for (const f of fields) {
    const value = data[f.name];
    if (isEmpty(value)) {
      if (f.required) issues.push({ field: `data.${f.name}`, message: 'required_field' });
      continue;
    }
    const check = typeChecks[f.type];
    if (!check.ok(value)) issues.push({ field: `data.${f.name}`, message: check.message });
  }
  for (const key of Object.keys(data)) {
    if (!known.has(key)) issues.push({ field: `data.${key}`, message: 'unknown_field' });
  }
  return issues;
}
