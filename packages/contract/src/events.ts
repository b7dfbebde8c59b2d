import { z } from 'zod';
import { ALERT_EVENT_TYPES } from './alert-event-types.js';
import { CONNECTIVITY } from './vms.js';
import { EXECUTION_STATUSES } from './execution-statuses.js';

/** The live stream's events (events-stream.ts says where and how they are sent). */
export const liveEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('execution'),
    execution_id: z.number().int(),
    rota_robots_id: z.number().int(),
    status: z.enum(EXECUTION_STATUSES),
    /** Sent when the run was flagged stalled (true) or activity resumed (false). */
    stalled: z.boolean().optional(),
    /** Sent when its agent's connection was lost (true) or came back (false). */
    connection_lost: z.boolean().optional(),
  }),
  z.object({
    type: z.literal('log'),
    execution_id: z.number().int(),
    /** Whose run: a member of teams receives only their robots' events. */
    rota_robots_id: z.number().int(),
    /** The newest log line's seq; fetch `logs` after what you have. */
    last_seq: z.number().int(),
  }),
  z.object({
    /** The robot reported progress (robot API `progress`): its run's bar moved. */
    type: z.literal('progress'),
    execution_id: z.number().int(),
    rota_robots_id: z.number().int(),
    percent: z.number().int().nullable(),
  }),
  z.object({
    type: z.literal('agent'),
    rota_nodes_id: z.number().int(),
    connectivity: z.enum(CONNECTIVITY),
    /** Sent when its stream closed without a goodbye (true) or it was heard again (false). */
    connection_lost: z.boolean().optional(),
  }),
  z.object({
    /** An open task's deadline came within its robot's risk minutes, or passed. */
    type: z.literal('task'),
    rota_tasks_id: z.number().int(),
    rota_robots_id: z.number().int(),
    sla_state: z.enum(['at_risk', 'breached']),
  }),
  z.object({
    /** New events reached the client's bell: refetch the feed. */
    type: z.literal('alert'),
    /** The newest event's id. */
    rota_alert_events_id: z.number().int(),
    /** The robot of the newest, so a member of teams hears only of their robots (null: agents). */
    rota_robots_id: z.number().int().nullable(),
    /** The newest's type, so a user hears only of the events their permissions show them. */
    event_type: z.enum(ALERT_EVENT_TYPES),
  }),
]);
export type LiveEvent = z.infer<typeof liveEventSchema>;
