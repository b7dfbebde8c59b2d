import { z } from 'zod';
import { dateRangeFilterShape, idSchema, listQuerySchema } from './common.js';
import { msg } from './messages.js';

export const AUDIT_ACTIONS = [
  'create',
  'update',
  'delete',
  'sign_in',
  'sign_out',
  'password_change',
  'restore',
  'run',
  'cancel',
  'rotate_token',
  'stop',
  'mark_failed',
  'revoke',
  // Second factor and sessions.
  'mfa_enable',
  'mfa_disable',
  'mfa_recovery_codes',
  'mfa_reset',
  'session_revoke',
  // Maintenance windows.
  'maintenance_start',
  'maintenance_end',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One record of the audit log: who, in which client, when, what, before and after (no secrets). */
export const auditLogSchema = z.object({
  audit_logs_id: z.number().int(),
  rota_clients_id: z.number().int().nullable(),
  users_id: z.number().int().nullable(),
  user_name: z.string().nullable(),
  /** The personal API key the change was made with; null: a session. */
  api_key_name: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entity_id: z.string().nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  ip: z.string().nullable(),
  request_id: z.string().nullable(),
  created_at: z.string(),
});
export type AuditLog = z.infer<typeof auditLogSchema>;

/** `/rota/audit/api/v1/index` (read only: the log cannot be edited). */
export const auditLogListQuerySchema = listQuerySchema.extend({
  sort: z.enum(['created_at']).default('created_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
  action: z.enum(AUDIT_ACTIONS, { error: msg('invalid_value') }).optional(),
  entity: z.string().trim().max(60, msg('too_long')).optional(),
  users_id: idSchema.optional(),
  ...dateRangeFilterShape,
});
export type AuditLogListQuery = z.infer<typeof auditLogListQuerySchema>;
