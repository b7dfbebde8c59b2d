import { z } from 'zod';
import { idSchema, listQuerySchema, optionalTextSchema, requiredTextSchema } from './common.js';
import { msg } from './messages.js';

export const CONNECTIVITY = ['active', 'inactive'] as const;
export type Connectivity = (typeof CONNECTIVITY)[number];

/** An agent is active while its last heartbeat is under 30 s old. */
export const AGENT_ACTIVE_WINDOW_SECONDS = 30;

/** A virtual machine that agents run on. */
export const vmSchema = z.object({
  rota_vms_id: z.number().int(),
  name: z.string(),
  hostname: z.string(),
  label: z.string().nullable(),
  os: z.string().nullable(),
  description: z.string().nullable(),
  connectivity: z.enum(CONNECTIVITY),
  agents: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Vm = z.infer<typeof vmSchema>;

const vmFields = {
  name: requiredTextSchema(120, 'required_name'),
  hostname: requiredTextSchema(253, 'required_hostname'),
  label: optionalTextSchema(120),
  os: optionalTextSchema(60),
  description: optionalTextSchema(2000),
};

export const vmCreateSchema = z.object(vmFields);
export type VmCreate = z.infer<typeof vmCreateSchema>;

export const vmUpdateSchema = z.object({
  id: idSchema,
  name: vmFields.name.optional(),
  hostname: vmFields.hostname.optional(),
  label: vmFields.label.optional(),
  os: vmFields.os.optional(),
  description: vmFields.description.optional(),
});
export type VmUpdate = z.infer<typeof vmUpdateSchema>;

export const vmListQuerySchema = listQuerySchema.extend({
  sort: z.enum(['name', 'hostname', 'os', 'created_at']).default('name'),
  connectivity: z.enum(CONNECTIVITY, { error: msg('invalid_value') }).optional(),
});
export type VmListQuery = z.infer<typeof vmListQuerySchema>;

export const vmCountSchema = z.object({
  total: z.number().int(),
  active: z.number().int(),
  inactive: z.number().int(),
});
export type VmCount = z.infer<typeof vmCountSchema>;
