import { z } from 'zod';
import { idSchema, listQuerySchema, requiredIdSchema, requiredTextSchema } from './common.js';
import { AGENT_MODES } from './agent-protocol.js';
import { labelListSchema, labelsSchema } from './labels.js';
import { msg } from './messages.js';
import { CONNECTIVITY } from './vms.js';

/** Under this much free disk in its work dir an agent shows "low disk space". */
export const AGENT_LOW_DISK_BYTES = 1024 ** 3;

/**
 * What an agent said of its machine in its last hello. Fields an older agent did not send are
 * null.
 */
export const agentFactsSchema = z.object({
  os: z.string().nullable(),
  os_version: z.string().nullable(),
  arch: z.string().nullable(),
  hostname: z.string().nullable(),
  cpus: z.number().int().nullable(),
  memory_bytes: z.number().int().nullable(),
  free_disk_bytes: z.number().int().nullable(),
  agent_version: z.string().nullable(),
  mode: z.enum(AGENT_MODES).nullable(),
});
export type AgentFacts = z.infer<typeof agentFactsSchema>;

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
  /** Null: the agent has not said hello since the server began keeping them. */
  facts: agentFactsSchema.nullable(),
  /** Its last hello said under AGENT_LOW_DISK_BYTES free in its work dir. */
  low_disk: z.boolean(),
  /**
   * A packaged agent of the same major version older than the build this server ships (its
   * last hello's version); a source checkout never is.
   */
  update_available: z.boolean(),
  /** Asked to update (by hand or by the client's automatic updates) and not updated yet. */
  update_requested: z.boolean(),
  /** The labels an administrator set in the console. */
  labels: labelListSchema,
  /** What the agent carries: the console's, those its hello declared, its OS and architecture. */
  effective_labels: labelListSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Agent = z.infer<typeof agentSchema>;

export const agentWithTokenSchema = agentSchema.extend({ token: z.string() });
export type AgentWithToken = z.infer<typeof agentWithTokenSchema>;

export const agentCreateSchema = z.object({
  name: requiredTextSchema(120, 'required_name'),
  rota_vms_id: requiredIdSchema('required_vm'),
  labels: labelsSchema.optional(),
});
export type AgentCreate = z.infer<typeof agentCreateSchema>;

export const agentUpdateSchema = z.object({
  id: idSchema,
  name: requiredTextSchema(120, 'required_name').optional(),
  rota_vms_id: idSchema.optional(),
  labels: labelsSchema.optional(),
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
