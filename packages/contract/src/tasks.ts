import { z } from 'zod';
import {
  boundedIntSchema,
  dateRangeFilterShape,
  idSchema,
  requiredIdSchema,
  listQuerySchema,
  optionalTextSchema,
} from './common.js';
import { msg } from './messages.js';

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

/** A work item a robot consumes; `data` follows the robot's fields. */
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
  created_at: z.string(),
  updated_at: z.string(),
});
export type Task = z.infer<typeof taskSchema>;

/** ISO 8601 date-time (or a day, meaning its end) for `expiration_date`. */
export const expirationDateSchema = z
  .string({ error: msg('required_expiration_date') })
  .trim()
  .min(1, msg('required_expiration_date'))
  .refine((v) => !Number.isNaN(Date.parse(v)), msg('invalid_date'));

const taskData = z.record(z.string(), z.unknown(), { error: msg('invalid_type_json') });

export const taskCreateSchema = z.object({
  rota_robots_id: requiredIdSchema('required_robot'),
  label: optionalTextSchema(200),
  data: taskData.default({}),
  priority: boundedIntSchema(1, 100).default(TASK_DEFAULT_PRIORITY),
  expiration_date: expirationDateSchema,
});
export type TaskCreate = z.infer<typeof taskCreateSchema>;

export const taskUpdateSchema = z.object({
  id: idSchema,
  label: optionalTextSchema(200).optional(),
  data: taskData.optional(),
  priority: boundedIntSchema(1, 100).optional(),
  expiration_date: expirationDateSchema.optional(),
});
export type TaskUpdate = z.infer<typeof taskUpdateSchema>;

export const taskListQuerySchema = listQuerySchema.extend({
  sort: z
    .enum(['created_at', 'priority', 'expiration_date', 'status', 'label'])
    .default('created_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
  rota_robots_id: idSchema.optional(),
  status: z.enum(TASK_STATUSES, { error: msg('invalid_value') }).optional(),
  ...dateRangeFilterShape,
});
export type TaskListQuery = z.infer<typeof taskListQuerySchema>;
