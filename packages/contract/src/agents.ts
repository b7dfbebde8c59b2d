import { z } from 'zod';
import { idSchema, listQuerySchema, requiredIdSchema, requiredTextSchema } from './common.js';
import { msg } from './messages.js';
import { CONNECTIVITY } from './vms.js';

/** An agent (node): the program on a VM that runs robots. Its token is shown once. */
export const agentSchema = z.object({
  rota_nodes_id: z.number().int(),
  name: z.string(),
  rota_vms_id: z.number().int(),
  rota_vms_name: z.string(),
  connectivity: z.enum(CONNECTIVITY),
  last_seen_at: z.string().nullable(),
  /**
   * When its stream closed without a goodbye (ISO); null once it is heard again. Connectivity
   * keeps its heartbeat window, so an agent may be active with its connection lost for a while.
   */
  connection_lost_at: z.string().nullable(),
  version: z.string().nullable(),
  hostname: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Agent = z.infer<typeof agentSchema>;

export const agentWithTokenSchema = agentSchema.extend({ token: z.string() });
export type AgentWithToken = z.infer<typeof agentWithTokenSchema>;

export const agentCreateSchema = z.object({
  name: requiredTextSchema(120, 'required_name'),
  rota_vms_id: requiredIdSchema('required_vm'),
});
export type AgentCreate = z.infer<typeof agentCreateSchema>;

export const agentUpdateSchema = z.object({
  id: idSchema,
  name: requiredTextSchema(120, 'required_name').optional(),
  rota_vms_id: idSchema.optional(),
});
export type AgentUpdate = z.infer<typeof agentUpdateSchema>;

export const agentListQuerySchema = listQuerySchema.extend({
  sort: z.enum(['name', 'last_seen_at', 'created_at']).default('name'),
  rota_vms_id: idSchema.optional(),
  connectivity: z.enum(CONNECTIVITY, { error: msg('invalid_value') }).optional(),
});
export type AgentListQuery = z.infer<typeof agentListQuerySchema>;

export const agentTokenResponseSchema = z.object({
  message: z.string(),
  data: z.object({ token: z.string() }),
});
