import { z } from 'zod';
import { ALERT_EVENT_TYPES, type AlertEventType } from './alert-event-types.js';
import { emailSchema } from './auth.js';
import {
  booleanFilterSchema,
  idSchema,
  listQuerySchema,
  requiredIdSchema,
  requiredTextSchema,
  storableString,
} from './common.js';
import { msg } from './messages.js';

/** The "send test" button's event: delivered to its one rule, never to the bell. */
export const ALERT_TEST_EVENT = 'alert.test';

export const ALERT_CHANNEL_TYPES = ['email', 'webhook', 'slack', 'teams'] as const;
export type AlertChannelType = (typeof ALERT_CHANNEL_TYPES)[number];

export const ALERT_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type AlertDeliveryStatus = (typeof ALERT_DELIVERY_STATUSES)[number];

/** Recipients of one email rule, and the longest secret or URL a channel takes. */
export const ALERT_MAX_RECIPIENTS = 20;
export const ALERT_SECRET_MIN = 16;

/** An http(s) address for a webhook or a chat channel (whether it may be reached: the server). */
export const outboundUrlSchema = storableString({ error: msg('invalid_url') })
  .trim()
  .max(2000, msg('too_long'))
  // The contract runs where URL may not exist (no DOM, no Node types): a host is required.
  .refine(
    (v) => /^https?:\/\/[^\s/?#@]+(?:@[^\s/?#@]+)?(?:[/?#]\S*)?$/i.test(v),
    msg('invalid_url'),
  );

const secretSchema = storableString({ error: msg('required_secret') })
  .min(ALERT_SECRET_MIN, msg('secret_too_short'))
  .max(256, msg('too_long'));

/**
 * A channel as written. On update a webhook's `secret` or a chat `url` left out keeps the one
 * stored, as long as the channel's type does not change.
 */
export const alertChannelInputSchema = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('email'),
      to: z
        .array(emailSchema, { error: msg('invalid_email') })
        .min(1, msg('required_email'))
        .max(ALERT_MAX_RECIPIENTS, msg('too_long')),
    }),
    z.object({
      type: z.literal('webhook'),
      url: outboundUrlSchema,
      secret: secretSchema.optional(),
    }),
    z.object({ type: z.literal('slack'), url: outboundUrlSchema.optional() }),
    z.object({ type: z.literal('teams'), url: outboundUrlSchema.optional() }),
  ],
  { error: msg('invalid_value') },
);
export type AlertChannelInput = z.infer<typeof alertChannelInputSchema>;

/** A channel as answered: never its secret nor a chat URL (they are sealed at rest). */
export const alertChannelSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('email'), to: z.array(z.string()) }),
  z.object({ type: z.literal('webhook'), url: z.string(), secret_set: z.boolean() }),
  z.object({ type: z.literal('slack'), url_set: z.boolean() }),
  z.object({ type: z.literal('teams'), url_set: z.boolean() }),
]);
export type AlertChannel = z.infer<typeof alertChannelSchema>;

export const alertSchema = z.object({
  rota_alerts_id: z.number().int(),
  name: z.string(),
  active: z.boolean(),
  events: z.array(z.enum(ALERT_EVENT_TYPES)),
  /** Empty: every robot of the client. Agent events ignore it (an agent serves every robot). */
  rota_robots_ids: z.array(z.number().int()),
  /**
   * Those of `rota_robots_ids` the user may see, with their names, to show the rule (a robot
   * deleted since, or outside the user's teams, is left out).
   */
  robots: z.array(z.object({ rota_robots_id: z.number().int(), name: z.string() })),
  channel: alertChannelSchema,
  /** The language its messages are written in. */
  language: z.enum(['pt', 'en']),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Alert = z.infer<typeof alertSchema>;

const alertFields = {
  name: requiredTextSchema(120, 'required_name'),
  active: z.boolean({ error: msg('invalid_value') }),
  events: z
    .array(z.enum(ALERT_EVENT_TYPES, { error: msg('invalid_value') }), {
      error: msg('required_events'),
    })
    .min(1, msg('required_events'))
    .transform((events) => [...new Set(events)]),
  rota_robots_ids: z
    .array(idSchema, { error: msg('invalid_value') })
    .max(500, msg('too_long'))
    .transform((ids) => [...new Set(ids)]),
  language: z.enum(['pt', 'en'], { error: msg('invalid_value') }),
};

/** `language` left out: the author's (Accept-Language). */
export const alertCreateSchema = z.object({
  name: alertFields.name,
  active: alertFields.active.default(true),
  events: alertFields.events,
  rota_robots_ids: alertFields.rota_robots_ids.default([]),
  channel: alertChannelInputSchema,
  language: alertFields.language.optional(),
});
export type AlertCreate = z.infer<typeof alertCreateSchema>;

export const alertUpdateSchema = z.object({
  id: idSchema,
  name: alertFields.name.optional(),
  active: alertFields.active.optional(),
  events: alertFields.events.optional(),
  rota_robots_ids: alertFields.rota_robots_ids.optional(),
  channel: alertChannelInputSchema.optional(),
  language: alertFields.language.optional(),
});
export type AlertUpdate = z.infer<typeof alertUpdateSchema>;

export const alertListQuerySchema = listQuerySchema.extend({
  sort: z.enum(['name', 'created_at']).default('name'),
  active: booleanFilterSchema,
  channel_type: z.enum(ALERT_CHANNEL_TYPES, { error: msg('invalid_value') }).optional(),
});
export type AlertListQuery = z.infer<typeof alertListQuerySchema>;

/** One message to a rule's channel: an event, or repeats within ten minutes folded (`count`). */
export const alertDeliverySchema = z.object({
  rota_alert_deliveries_id: z.number().int(),
  /** `X-Rota-Delivery`, the same on every attempt. */
  delivery_uid: z.string(),
  rota_alerts_id: z.number().int(),
  event_type: z.string(),
  rota_robots_id: z.number().int().nullable(),
  robot_name: z.string().nullable(),
  count: z.number().int(),
  status: z.enum(ALERT_DELIVERY_STATUSES),
  attempts: z.number().int(),
  response_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
});
export type AlertDelivery = z.infer<typeof alertDeliverySchema>;

export const alertDeliveryListQuerySchema = listQuerySchema.extend({
  rota_alerts_id: requiredIdSchema('required_alert'),
  status: z.enum(ALERT_DELIVERY_STATUSES, { error: msg('invalid_value') }).optional(),
  sort: z.enum(['created_at']).default('created_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type AlertDeliveryListQuery = z.infer<typeof alertDeliveryListQuerySchema>;

/** An event in the header's bell. */
export const alertFeedItemSchema = z.object({
  rota_alert_events_id: z.number().int(),
  event_uid: z.string(),
  type: z.enum(ALERT_EVENT_TYPES),
  occurred_at: z.string(),
  rota_robots_id: z.number().int().nullable(),
  robot_name: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  unread: z.boolean(),
});
export type AlertFeedItem = z.infer<typeof alertFeedItemSchema>;

export const alertFeedSchema = z.object({
  data: z.array(alertFeedItemSchema),
  /** Events of the client after the last one the user marked read. */
  unread: z.number().int(),
});
export type AlertFeed = z.infer<typeof alertFeedSchema>;

export const alertFeedQuerySchema = z.object({
  limit: z
    .number({ error: msg('invalid_number') })
    .int()
    .min(1)
    .max(100)
    .default(20),
});
export type AlertFeedQuery = z.infer<typeof alertFeedQuerySchema>;

/** Everything up to this event counts as read. */
export const alertFeedSeenSchema = z.object({ up_to: idSchema });
export type AlertFeedSeen = z.infer<typeof alertFeedSeenSchema>;

/** The webhook body (`X-Rota-Signature` signs these exact bytes). */
export interface AlertWebhookBody {
  id: string;
  type: AlertEventType | typeof ALERT_TEST_EVENT;
  occurred_at: string;
  rota_clients_id: number;
  data: Record<string, unknown> & { count: number; url: string | null };
}
