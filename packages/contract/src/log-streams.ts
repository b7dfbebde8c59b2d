import { z } from 'zod';
import {
  booleanFilterSchema,
  idSchema,
  listQuerySchema,
  requiredTextSchema,
  storableString,
} from './common.js';
import { msg } from './messages.js';

/** How a log stream reaches its syslog receiver: RFC 6587 octet-counted frames over either. */
export const LOG_STREAM_TRANSPORTS = ['tcp', 'tls'] as const;
export type LogStreamTransport = (typeof LOG_STREAM_TRANSPORTS)[number];

/** What a stream carries: the client's audit records, its runs starting and finishing. */
export const LOG_STREAM_EVENTS = ['audit', 'execution'] as const;
export type LogStreamEvent = (typeof LOG_STREAM_EVENTS)[number];

/** A host name or a literal address (whether it may be reached: the server). */
const hostSchema = storableString({ error: msg('required_host') })
  .trim()
  .min(1, msg('required_host'))
  .max(253, msg('too_long'))
  .refine((v) => /^(?:[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?\.?)+$|^\[?[0-9a-f:.]+\]?$/i.test(v), {
    error: msg('invalid_host'),
  });

const portSchema = z
  .number({ error: msg('invalid_port') })
  .int(msg('invalid_port'))
  .min(1, msg('invalid_port'))
  .max(65535, msg('invalid_port'));

/** The receiver's CA, PEM; null on update removes it (the system's CAs apply again). */
const caCertificateSchema = storableString({ error: msg('invalid_certificate') })
  .trim()
  .max(20000, msg('too_long'))
  .refine((v) => /^-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----$/.test(v), {
    error: msg('invalid_certificate'),
  });

const fields = {
  name: requiredTextSchema(120, 'required_name'),
  active: z.boolean({ error: msg('invalid_value') }),
  transport: z.enum(LOG_STREAM_TRANSPORTS, { error: msg('invalid_value') }),
  host: hostSchema,
  port: portSchema,
  events: z
    .array(z.enum(LOG_STREAM_EVENTS, { error: msg('invalid_value') }), {
      error: msg('required_events'),
    })
    .min(1, msg('required_events'))
    .transform((events) => [...new Set(events)]),
  ca_certificate: caCertificateSchema.nullable(),
};

/** A stream as answered: whether a CA certificate is kept, never the certificate itself. */
export const logStreamSchema = z.object({
  rota_log_streams_id: z.number().int(),
  name: z.string(),
  active: z.boolean(),
  transport: z.enum(LOG_STREAM_TRANSPORTS),
  host: z.string(),
  port: z.number().int(),
  events: z.array(z.enum(LOG_STREAM_EVENTS)),
  ca_certificate_set: z.boolean(),
  /** Messages waiting to be sent (retried after a failure) and given up after a day. */
  pending: z.number().int(),
  failed: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type LogStreamConfig = z.infer<typeof logStreamSchema>;

const certificateOnlyWithTls = (
  v: { transport?: LogStreamTransport; ca_certificate?: string | null },
  ctx: z.RefinementCtx,
) => {
  if (v.ca_certificate && v.transport === 'tcp') {
    ctx.addIssue({
      code: 'custom',
      path: ['ca_certificate'],
      message: msg('certificate_needs_tls'),
    });
  }
};

export const logStreamCreateSchema = z
  .object({
    name: fields.name,
    active: fields.active.default(true),
    transport: fields.transport,
    host: fields.host,
    port: fields.port,
    events: fields.events,
    ca_certificate: fields.ca_certificate.optional(),
  })
  .superRefine(certificateOnlyWithTls);
export type LogStreamCreate = z.infer<typeof logStreamCreateSchema>;

/** Fields left out stay; `ca_certificate` left out keeps the one kept, null removes it. */
export const logStreamUpdateSchema = z
  .object({
    id: idSchema,
    name: fields.name.optional(),
    active: fields.active.optional(),
    transport: fields.transport.optional(),
    host: fields.host.optional(),
    port: fields.port.optional(),
    events: fields.events.optional(),
    ca_certificate: fields.ca_certificate.optional(),
  })
  .superRefine(certificateOnlyWithTls);
export type LogStreamUpdate = z.infer<typeof logStreamUpdateSchema>;

export const logStreamListQuerySchema = listQuerySchema.extend({
  sort: z.enum(['name', 'created_at']).default('name'),
  active: booleanFilterSchema,
});
export type LogStreamListQuery = z.infer<typeof logStreamListQuerySchema>;

/** A test message's outcome: only delivered or not (the transport's detail is in the server log). */
export const logStreamTestSchema = z.object({
  delivered: z.boolean(),
  last_error: z.string().nullable(),
});
export type LogStreamTest = z.infer<typeof logStreamTestSchema>;
