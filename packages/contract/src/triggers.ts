import { z } from 'zod';
import { idSchema, listQuerySchema, requiredIdSchema, requiredTextSchema } from './common.js';
import { msg, msgWith } from './messages.js';
import { expirationDateSchema, taskCreateSchema, taskInstantSchema } from './tasks.js';

/** Tasks one fire may create. */
export const TRIGGER_FIRE_MAX_TASKS = 100;

/** A robot's run trigger, fired by another system with its token. */
export const triggerSchema = z.object({
  rota_triggers_id: z.number().int(),
  rota_robots_id: z.number().int(),
  robot_name: z.string(),
  name: z.string(),
  /** The token's last four characters. */
  token_hint: z.string(),
  revoked_at: z.string().nullable(),
  last_fired_at: z.string().nullable(),
  created_at: z.string(),
});
export type Trigger = z.infer<typeof triggerSchema>;

export const triggerCreateSchema = z.object({
  rota_robots_id: requiredIdSchema('required_robot'),
  name: requiredTextSchema(120, 'required_name'),
});
export type TriggerCreate = z.infer<typeof triggerCreateSchema>;

/** Create and rotate answer the token, once. */
export const triggerWithTokenSchema = triggerSchema.extend({ token: z.string() });
export type TriggerWithToken = z.infer<typeof triggerWithTokenSchema>;

export const triggerUpdateSchema = z.object({
  id: idSchema,
  name: requiredTextSchema(120, 'required_name').optional(),
});
export type TriggerUpdate = z.infer<typeof triggerUpdateSchema>;

export const triggerListQuerySchema = listQuerySchema.extend({
  sort: z.enum(['name', 'created_at']).default('name'),
  rota_robots_id: idSchema.optional(),
});
export type TriggerListQuery = z.infer<typeof triggerListQuerySchema>;

const firedTaskSchema = z.object({
  label: taskCreateSchema.shape.label,
  data: taskCreateSchema.shape.data,
  priority: taskCreateSchema.shape.priority,
  deadline: taskInstantSchema.nullish(),
  /** Left out: thirty days after the fire. */
  expiration_date: expirationDateSchema.optional(),
});

/** `POST /api/rota/trigger/api/v1/fire` with `Authorization: Bearer <trigger token>`. */
export const triggerFireSchema = z.object({
  tasks: z
    .array(firedTaskSchema, { error: msg('invalid_value') })
    .max(TRIGGER_FIRE_MAX_TASKS, msg('too_long'))
    .default([]),
  priority: z
    .number({ error: msg('invalid_number') })
    .int(msg('invalid_integer'))
    .min(1, msgWith('out_of_range_between', { min: 1, max: 100 }))
    .max(100, msgWith('out_of_range_between', { min: 1, max: 100 }))
    .optional(),
  rota_vms_id: idSchema.optional(),
});
export type TriggerFire = z.infer<typeof triggerFireSchema>;

export const triggerFireAnswerSchema = z.object({
  data: z.object({ execution_id: z.number().int(), task_ids: z.array(z.number().int()) }),
});
export type TriggerFireAnswer = z.infer<typeof triggerFireAnswerSchema>;

/** The header a caller repeats a fire with; up to this long. */
export const IDEMPOTENCY_KEY_MAX = 200;
