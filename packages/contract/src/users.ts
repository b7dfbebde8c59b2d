import { z } from 'zod';
import { emailSchema, newPasswordSchema } from './auth.js';
import { idSchema, listQuerySchema, requiredTextSchema } from './common.js';
import { msg } from './messages.js';

/**
 * Letters only, accents and spaces allowed; letters of any language with their marks,
 * and the apostrophes and hyphens names have ("D'Ávila", "João-Pedro", "Nguyễn"), never first
 * or doubled (docs/decisions.md "Names").
 */
const lettersSchema = (required: 'required_first_name' | 'required_last_name') =>
  z
    .string({ error: msg(required) })
    .trim()
    // A blank field is missing, not also badly written: one message.
    .min(1, { error: msg(required), abort: true })
    .max(80, msg('too_long'))
    // Words of letters (with their marks) joined by spaces, an apostrophe or a hyphen; each
    // joint must be followed by a letter, so a word is one run and a long input never backtracks.
    .regex(/^\p{L}[\p{L}\p{M}]*(?:(?: +|['’-])\p{L}[\p{L}\p{M}]*)*$/u, msg('letters_only'));

/** 3–50 of lowercase letters, digits, `.`, `_`, `-` (stored as typed, compared lower-case). */
export const accessSchema = z
  .string({ error: msg('required_access') })
  .trim()
  .min(1, { error: msg('required_access'), abort: true })
  .regex(/^[a-z0-9._-]{3,50}$/, msg('invalid_access'));

export const userMembershipSchema = z.object({
  rota_clients_id: idSchema,
  profiles_id: idSchema,
});
export type UserMembership = z.infer<typeof userMembershipSchema>;

/** At least one client, each once ("Client is required"). */
const membershipsSchema = z
  .array(userMembershipSchema, { error: msg('client_required') })
  .min(1, msg('client_required'))
  .max(200, msg('too_long'))
  .refine(
    (list) => new Set(list.map((m) => m.rota_clients_id)).size === list.length,
    msg('invalid_value'),
  );

const userFields = {
  name: lettersSchema('required_first_name'),
  last_name: lettersSchema('required_last_name'),
  email: emailSchema,
  access: accessSchema,
  group: requiredTextSchema(120, 'required_group'),
  sector: requiredTextSchema(120, 'required_sector'),
  work: requiredTextSchema(120, 'required_work'),
  role: requiredTextSchema(120, 'required_role'),
  password_change_required: z.boolean({ error: msg('invalid_value') }),
  clients: membershipsSchema,
};

/** POST /user/api/v1/create. A new user must change the password at first sign-in by default. */
export const userCreateSchema = z.object({
  ...userFields,
  password_change_required: userFields.password_change_required.default(true),
  password: newPasswordSchema,
});
export type UserCreate = z.infer<typeof userCreateSchema>;

/** PUT /user/api/v1/update: any subset; `avatar: null` removes the picture. */
export const userUpdateSchema = z.object({
  id: idSchema,
  name: userFields.name.optional(),
  last_name: userFields.last_name.optional(),
  email: userFields.email.optional(),
  access: userFields.access.optional(),
  group: userFields.group.optional(),
  sector: userFields.sector.optional(),
  work: userFields.work.optional(),
  role: userFields.role.optional(),
  password_change_required: userFields.password_change_required.optional(),
  clients: userFields.clients.optional(),
  avatar: z.null().optional(),
});
export type UserUpdate = z.infer<typeof userUpdateSchema>;

/** A user as the users area answers it; never a password or its hash. */
export const userSchema = z.object({
  users_id: z.number().int(),
  name: z.string(),
  last_name: z.string(),
  email: z.string(),
  access: z.string(),
  group: z.string().nullable(),
  sector: z.string().nullable(),
  work: z.string().nullable(),
  role: z.string().nullable(),
  avatar: z.string().nullable(),
  password_change_required: z.boolean(),
  is_platform_admin: z.boolean(),
  /** The user's memberships among the clients the reader may see. */
  clients: z.array(
    z.object({
      rota_clients_id: z.number().int(),
      client_name: z.string(),
      profiles_id: z.number().int(),
      profile_name: z.string(),
    }),
  ),
  created_at: z.string(),
  updated_at: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const userListQuerySchema = listQuerySchema.extend({
  sort: z.enum(['name', 'email', 'access', 'created_at']).default('name'),
  profiles_id: idSchema.optional(),
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;

/** POST /user/api/v1/name: `{data: [{users_id, name, last_name}]}` for pickers. */
export const userNameSchema = z.object({
  users_id: z.number().int(),
  name: z.string(),
  last_name: z.string(),
});
export type UserName = z.infer<typeof userNameSchema>;
export const userNameQuerySchema = z.object({
  search: z.string().trim().max(200, msg('too_long')).optional(),
});
export type UserNameQuery = z.infer<typeof userNameQuerySchema>;

/** PUT /user/api/v1/update/password by an administrator for another user (no current password). */
export const userPasswordSetSchema = z
  .object({
    users_id: idSchema,
    password: newPasswordSchema,
    confirm_password: z
      .string({ error: msg('required_password') })
      .min(1, msg('required_password')),
    password_change_required: z.boolean({ error: msg('invalid_value') }).default(true),
  })
  .superRefine((value, ctx) => {
    if (value.password !== value.confirm_password) {
      ctx.addIssue({
        code: 'custom',
        path: ['confirm_password'],
        message: msg('passwords_must_match'),
      });
    }
  });
export type UserPasswordSet = z.infer<typeof userPasswordSetSchema>;

/** Avatar upload: an image of at most 1 MB. */
export const AVATAR_MAX_BYTES = 1024 * 1024;
export const AVATAR_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

/* ---------- User clients: memberships (user, client, profile). ---------- */

export const userClientSchema = z.object({
  user_clients_id: z.number().int(),
  users_id: z.number().int(),
  user_name: z.string(),
  rota_clients_id: z.number().int(),
  profiles_id: z.number().int(),
  profile_name: z.string(),
  created_at: z.string(),
});
export type UserClient = z.infer<typeof userClientSchema>;

export const userClientCreateSchema = z.object({
  users_id: idSchema,
  profiles_id: idSchema,
});
export type UserClientCreate = z.infer<typeof userClientCreateSchema>;

export const userClientUpdateSchema = z.object({ id: idSchema, profiles_id: idSchema });
export type UserClientUpdate = z.infer<typeof userClientUpdateSchema>;

export const userClientListQuerySchema = listQuerySchema.extend({
  sort: z.enum(['user_name', 'profile_name', 'created_at']).default('user_name'),
  users_id: idSchema.optional(),
  profiles_id: idSchema.optional(),
});
export type UserClientListQuery = z.infer<typeof userClientListQuerySchema>;

/* ---------- Clients (tenants), managed by platform administrators. ---------- */

export const clientSchema = z.object({
  rota_clients_id: z.number().int(),
  name: z.string(),
  users: z.number().int(),
  /** Executions (with their logs and artifacts) ended longer ago than this are pruned nightly. */
  retention_days: z.number().int(),
  /** Audit records older than this are pruned nightly. */
  audit_retention_days: z.number().int(),
  /** Members sign in with a second factor; those without one enrol at their next sign-in. */
  require_mfa: z.boolean(),
  /** Package versions must carry a valid signature by one of the client's trusted keys. */
  require_signed_packages: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Client = z.infer<typeof clientSchema>;

export const CLIENT_RETENTION_DAYS_MAX = 3650;
export const CLIENT_RETENTION_DAYS_DEFAULT = 90;
export const CLIENT_AUDIT_RETENTION_DAYS_DEFAULT = 365;

const retentionDaysSchema = z
  .number({ error: msg('invalid_number') })
  .int(msg('invalid_integer'))
  .min(1, msg('out_of_range_retention_days'))
  .max(CLIENT_RETENTION_DAYS_MAX, msg('out_of_range_retention_days'));

export const clientCreateSchema = z.object({
  name: requiredTextSchema(120, 'required_name'),
  retention_days: retentionDaysSchema.optional(),
  audit_retention_days: retentionDaysSchema.optional(),
  require_mfa: z.boolean().optional(),
});
export type ClientCreate = z.infer<typeof clientCreateSchema>;

export const clientUpdateSchema = z.object({
  id: idSchema,
  name: requiredTextSchema(120, 'required_name'),
  /** Left out: unchanged. */
  retention_days: retentionDaysSchema.optional(),
  audit_retention_days: retentionDaysSchema.optional(),
  require_mfa: z.boolean().optional(),
  require_signed_packages: z.boolean().optional(),
});
export type ClientUpdate = z.infer<typeof clientUpdateSchema>;

export const clientListQuerySchema = listQuerySchema.extend({
  sort: z.enum(['name', 'created_at']).default('name'),
});
export type ClientListQuery = z.infer<typeof clientListQuerySchema>;

/* ---------- Avatar upload: POST /user/api/v1/avatar (multipart/form-data). ---------- */

/** The multipart part holding the image; field errors about the image name this field. */
export const AVATAR_FILE_FIELD = 'avatar';

/** `data.avatar` is the picture's public address, `/api/user/api/v1/avatar/<sha256>.<ext>`. */
export const avatarUploadResponseSchema = z.object({
  message: z.string(),
  data: z.object({ users_id: z.number().int(), avatar: z.string() }),
});
export type AvatarUploadResponse = z.infer<typeof avatarUploadResponseSchema>;

/* ---------- Access requests, reviewed by platform administrators. ---------- */

export const ACCESS_REQUEST_STATUSES = ['pending', 'approved', 'dismissed'] as const;
export type AccessRequestStatus = (typeof ACCESS_REQUEST_STATUSES)[number];
export const accessRequestStatusSchema = z.enum(ACCESS_REQUEST_STATUSES, {
  error: msg('invalid_value'),
});

export const accessRequestSchema = z.object({
  access_requests_id: z.number().int(),
  name: z.string(),
  email: z.string(),
  client_name: z.string(),
  message: z.string().nullable(),
  status: accessRequestStatusSchema,
  ip: z.string().nullable(),
  created_at: z.string(),
});
export type AccessRequest = z.infer<typeof accessRequestSchema>;

/** `/user/access-request/api/v1/index`: newest first by default. */
export const accessRequestListQuerySchema = listQuerySchema.extend({
  sort: z.enum(['created_at', 'name', 'email', 'client_name']).default('created_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
  status: accessRequestStatusSchema.optional(),
});
export type AccessRequestListQuery = z.infer<typeof accessRequestListQuerySchema>;

/**
 * `update {id, status}`: `dismissed` sets a request aside, `approved` marks it done once the
 * console has created the user from it, `pending` reopens it.
 */
export const accessRequestUpdateSchema = z.object({
  id: idSchema,
  status: accessRequestStatusSchema,
});
export type AccessRequestUpdate = z.infer<typeof accessRequestUpdateSchema>;
