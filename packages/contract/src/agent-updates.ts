import { z } from 'zod';
import { idSchema } from './common.js';
import { AGENT_PLATFORMS } from './agent-download.js';
import { msg } from './messages.js';

/**
 * The exit code of an agent that replaced its own executable: a service manager that restarts
 * only after a failure (WinSW) starts the new one, as systemd's Restart=always does anyway.
 */
export const AGENT_UPDATED_EXIT_CODE = 75;

/**
 * What the heartbeat's, claim's and hello's answers offer an agent that should update: the
 * executable the server ships for its platform, to fetch from `GET update/{platform}` and check
 * against `sha256` before it replaces itself.
 */
export const agentUpdateOfferSchema = z.object({
  version: z.string(),
  platform: z.enum(AGENT_PLATFORMS),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().min(0),
});
export type AgentUpdateOffer = z.infer<typeof agentUpdateOfferSchema>;

/** `GET update/{platform}` under the agent protocol: the executable, for an agent token. */
export const agentUpdateParamsSchema = z.object({
  platform: z.enum(AGENT_PLATFORMS, { error: msg('invalid_value') }),
});

/**
 * `POST /api/rota/node/api/v1/update`: ask agents of the selected client to update, by ids, by
 * VM, or all of them: exactly one of the three. Agents not packaged, already current or of
 * another major version are not asked.
 */
export const agentUpdateRequestSchema = z
  .object({
    ids: z.array(idSchema).min(1, msg('update_target_one')).max(1000).optional(),
    rota_vms_id: idSchema.optional(),
    all: z.literal(true, { error: msg('invalid_value') }).optional(),
  })
  .refine((b) => [b.ids, b.rota_vms_id, b.all].filter((v) => v !== undefined).length === 1, {
    message: msg('update_target_one'),
    path: ['ids'],
  });
export type AgentUpdateRequest = z.infer<typeof agentUpdateRequestSchema>;

export const agentUpdateRequestResponseSchema = z.object({
  message: z.string(),
  /** How many agents were asked (those an update is available for). */
  data: z.object({ requested: z.number().int() }),
});

/** `POST /api/rota/node/api/v1/auto_update`: the client's agents update on their own, or not. */
export const agentAutoUpdateSchema = z.object({
  enabled: z.boolean({ error: msg('invalid_value') }),
});
export type AgentAutoUpdate = z.infer<typeof agentAutoUpdateSchema>;

/** `POST …/auto_update/show` and the answer of a change. */
export const agentAutoUpdateResponseSchema = z.object({
  data: z.object({
    enabled: z.boolean(),
    /** The agent version this server ships; null when nothing was packaged. */
    shipped_version: z.string().nullable(),
  }),
});
