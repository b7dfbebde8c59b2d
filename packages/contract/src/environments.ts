import { z } from 'zod';
import {
  boundedIntSchema,
  idSchema,
  listQuerySchema,
  optionalTextSchema,
  requiredTextSchema,
} from './common.js';
import { msg } from './messages.js';

/**
 * An environment: connection settings injected into runs. `db_pass` and `rota_token` are
 * sealed at rest and never answered: the answer says only whether each is set.
 */
export const environmentSchema = z.object({
  rota_environments_id: z.number().int(),
  title: z.string(),
  db_url: z.string().nullable(),
  db_name: z.string().nullable(),
  db_user: z.string().nullable(),
  db_port: z.number().int().nullable(),
  rota_api_url: z.string().nullable(),
  has_db_pass: z.boolean(),
  has_rota_token: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Environment = z.infer<typeof environmentSchema>;

/**
 * A secret: a new value replaces it, `null` (or a blank) clears it, leaving it out keeps it.
 * Not trimmed: a password may begin or end with a space.
 */
const secretSchema = z
  .string({ error: msg('invalid_value') })
  .max(1000, msg('too_long'))
  .nullish()
  .transform((v) => (v === '' ? null : v));

const environmentFields = {
  title: requiredTextSchema(120, 'required_title'),
  /** Host name or address of the PostgreSQL server. */
  db_url: optionalTextSchema(500),
  db_name: optionalTextSchema(120),
  db_user: optionalTextSchema(120),
  db_pass: secretSchema,
  db_port: boundedIntSchema(1, 65535).nullish(),
  rota_token: secretSchema,
  rota_api_url: z
    .string()
    .trim()
    .max(500, msg('too_long'))
    .refine((v) => v === '' || /^https?:\/\/\S+$/i.test(v), msg('invalid_url'))
    .nullish()
    .transform((v) => (v ? v : null)),
};

export const environmentCreateSchema = z.object(environmentFields);
export type EnvironmentCreate = z.infer<typeof environmentCreateSchema>;

export const environmentUpdateSchema = z.object({
  id: idSchema,
  title: environmentFields.title.optional(),
  db_url: environmentFields.db_url.optional(),
  db_name: environmentFields.db_name.optional(),
  db_user: environmentFields.db_user.optional(),
  db_pass: environmentFields.db_pass,
  db_port: environmentFields.db_port,
  rota_token: environmentFields.rota_token,
  rota_api_url: environmentFields.rota_api_url.optional(),
});
export type EnvironmentUpdate = z.infer<typeof environmentUpdateSchema>;

export const environmentListQuerySchema = listQuerySchema.extend({
  sort: z.enum(['title', 'created_at']).default('title'),
});
export type EnvironmentListQuery = z.infer<typeof environmentListQuerySchema>;

/** POST /rota/env/api/v1/test: tries the PostgreSQL described (5 s timeout). */
export const ENVIRONMENT_TEST_TIMEOUT_MS = 5000;
/** Connection tests one user may run per minute. */
export const ENVIRONMENT_TESTS_PER_MINUTE = 10;
/**
 * Connection tests one client may run per minute, all its users together: many accounts of one
 * tenant cannot turn the button into a scanner either.
 */
export const ENVIRONMENT_TESTS_PER_CLIENT_PER_MINUTE = 30;
/**
 * The stored `db_pass` is sent only to the host, port, user and database it was saved for; to
 * try another target (the settings changed since), the password is typed again here. A typed
 * password is used for this try only, not saved.
 */
export const environmentTestSchema = z.object({
  id: idSchema,
  db_pass: z
    .string({ error: msg('invalid_value') })
    .max(1000, msg('too_long'))
    .optional(),
});
export type EnvironmentTest = z.infer<typeof environmentTestSchema>;
export const environmentTestResultSchema = z.object({
  ok: z.boolean(),
  /**
   * The server's version when ok; PostgreSQL's own error (wrong password, unknown database), or
   * one generic "no PostgreSQL server answered" for anything that did not answer as PostgreSQL.
   */
  message: z.string(),
  duration_ms: z.number().int(),
});
export type EnvironmentTestResult = z.infer<typeof environmentTestResultSchema>;
