import { z } from 'zod';
import { requiredIdSchema, requiredTextSchema } from './common.js';
import { msg } from './messages.js';

/**
 * Maintenance windows: while one is active no agent in its scope takes new runs, schedulings that
 * come due there queue nothing (they are listed as skipped), and, by mode, running runs finish
 * (`drain`), are asked to stop gracefully (`stop`) or are killed (`kill`).
 */
export const MAINTENANCE_SCOPES = ['cluster', 'vm'] as const;
export type MaintenanceScope = (typeof MAINTENANCE_SCOPES)[number];
export const MAINTENANCE_MODES = ['drain', 'stop', 'kill'] as const;
export type MaintenanceMode = (typeof MAINTENANCE_MODES)[number];

/** The grace a `stop` window gives running robots before their tree is killed. */
export const MAINTENANCE_STOP_GRACE_SECONDS = 60;

const targetFields = {
  scope: z.enum(MAINTENANCE_SCOPES, { error: msg('invalid_value') }),
  rota_vms_id: requiredIdSchema('required_vm').optional(),
};

const vmNamedForVmScope = (
  value: { scope: MaintenanceScope; rota_vms_id?: number },
  ctx: z.RefinementCtx,
) => {
  if (value.scope === 'vm' && value.rota_vms_id === undefined) {
    ctx.addIssue({ code: 'custom', path: ['rota_vms_id'], message: msg('required_vm') });
  }
};

/** `POST maintenance/api/v1/end`: the target whose active window ends. */
export const maintenanceTargetSchema = z.object(targetFields).superRefine(vmNamedForVmScope);
export type MaintenanceTarget = z.infer<typeof maintenanceTargetSchema>;

/** `POST maintenance/api/v1/start`. */
export const maintenanceStartSchema = z
  .object({
    ...targetFields,
    mode: z.enum(MAINTENANCE_MODES, { error: msg('invalid_value') }),
    message: requiredTextSchema(500, 'required_maintenance_message'),
  })
  .superRefine(vmNamedForVmScope);
export type MaintenanceStart = z.infer<typeof maintenanceStartSchema>;

export const maintenanceSkipSchema = z.object({
  rota_schedulings_id: z.number().int(),
  scheduling_name: z.string().nullable(),
  due_at: z.string(),
  skipped_at: z.string(),
});
export type MaintenanceSkip = z.infer<typeof maintenanceSkipSchema>;

/** An active window as `show` answers it: who, since when, why, and what it skipped. */
export const maintenanceWindowSchema = z.object({
  rota_maintenance_windows_id: z.number().int(),
  scope: z.enum(MAINTENANCE_SCOPES),
  rota_vms_id: z.number().int().nullable(),
  vm_name: z.string().nullable(),
  mode: z.enum(MAINTENANCE_MODES),
  message: z.string(),
  started_by: z.string(),
  started_at: z.string(),
  /** Of the selected client's schedulings only. */
  skipped: z.array(maintenanceSkipSchema),
});
export type MaintenanceWindow = z.infer<typeof maintenanceWindowSchema>;

export const maintenanceShowResponseSchema = z.object({
  data: z.array(maintenanceWindowSchema),
});
export type MaintenanceShowResponse = z.infer<typeof maintenanceShowResponseSchema>;

export const maintenanceStartResponseSchema = z.object({
  message: z.string(),
  data: maintenanceWindowSchema,
});
