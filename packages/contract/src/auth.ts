import { z } from 'zod';
import { COLOR_SCHEMES, LANGUAGES, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.js';
import { idSchema } from './common.js';
import { msg } from './messages.js';

export const emailSchema = z
  .string({ error: msg('required_email') })
  .trim()
  .toLowerCase()
  .min(1, msg('required_email'))
  .max(254, msg('invalid_email'))
  .pipe(z.email({ pattern: z.regexes.html5Email, error: msg('invalid_email') }));

/** A new password: length only, so pass-phrases are welcome. */
export const newPasswordSchema = z
  .string({ error: msg('required_password') })
  .min(1, msg('required_password'))
  .min(PASSWORD_MIN_LENGTH, msg('password_too_short'))
  .max(PASSWORD_MAX_LENGTH, msg('password_too_long'));

const passwordPairShape = {
  password: newPasswordSchema,
  confirm_password: z.string({ error: msg('required_password') }).min(1, msg('required_password')),
};

function refineMatch<T extends { password: string; confirm_password: string }>(
  value: T,
  ctx: z.RefinementCtx,
) {
  if (value.password !== value.confirm_password) {
    ctx.addIssue({
      code: 'custom',
      path: ['confirm_password'],
      message: msg('passwords_must_match'),
    });
  }
}

/** POST /user/api/auth/v1/session: `access` is the access identifier or the email. */
export const sessionCreateSchema = z.object({
  access: z
    .string({ error: msg('required_access') })
    .trim()
    .min(1, msg('required_access'))
    .max(254, msg('invalid_access')),
  password: z
    .string({ error: msg('required_password') })
    .min(1, msg('required_password'))
    .max(PASSWORD_MAX_LENGTH, msg('password_too_long')),
});
export type SessionCreate = z.infer<typeof sessionCreateSchema>;

export const clientSummarySchema = z.object({
  rota_clients_id: z.number().int(),
  name: z.string(),
});
export type ClientSummary = z.infer<typeof clientSummarySchema>;

/** The signed-in user, as `session` answers it (with `token`) and `me` (with `avatar`). */
export const signedInUserSchema = z.object({
  users_id: z.number().int(),
  email: z.string(),
  name: z.string(),
  last_name: z.string(),
  permissions: z.array(z.string()),
  password_change_required: z.boolean(),
  clients: z.array(clientSummarySchema),
  rota_clients_id_selected: z.number().int().nullable(),
  group: z.string().nullable(),
  /** Kept on the server so they follow the user between browsers; null: not chosen. */
  language: z.enum(LANGUAGES).nullable().optional(),
  color_scheme: z.enum(COLOR_SCHEMES).nullable().optional(),
  /** The account has a TOTP second factor on. */
  mfa_enabled: z.boolean().optional(),
});
export type SignedInUser = z.infer<typeof signedInUserSchema>;

export const sessionResponseSchema = signedInUserSchema.extend({ token: z.string() });
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

export const meResponseSchema = signedInUserSchema.extend({ avatar: z.string().nullable() });
export type MeResponse = z.infer<typeof meResponseSchema>;

export const recoverPasswordSchema = z.object({ email: emailSchema });
export type RecoverPassword = z.infer<typeof recoverPasswordSchema>;

export const resetCodeSchema = z
  .string({ error: msg('required_code') })
  .trim()
  .min(1, msg('required_code'))
  .max(200, msg('code_invalid'));

export const checkCodeSchema = z.object({ code: resetCodeSchema });

/**
 * `code, password`. A client that also sends `confirm_password` gets it checked, but it
 * is never required (a client sending only `code, password` was refused).
 */
export const resetPasswordSchema = z
  .object({
    code: resetCodeSchema,
    password: newPasswordSchema,
    confirm_password: z.string({ error: msg('required_password') }).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.confirm_password !== undefined)
      refineMatch({ ...value, confirm_password: value.confirm_password }, ctx);
  });
export type ResetPassword = z.infer<typeof resetPasswordSchema>;

/** PUT /user/api/v1/update/password for one's own password. */
export const passwordUpdateSchema = z
  .object({
    current_password: z
      .string({ error: msg('required_current_password') })
      .min(1, msg('required_current_password'))
      .max(PASSWORD_MAX_LENGTH, msg('password_too_long')),
    ...passwordPairShape,
  })
  .superRefine((value, ctx) => {
    refineMatch(value, ctx);
    if (value.password === value.current_password) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: msg('password_must_differ') });
    }
  });
export type PasswordUpdate = z.infer<typeof passwordUpdateSchema>;

/** PUT /user/api/v1/client_select. */
export const clientSelectSchema = z.object({
  users_id: idSchema,
  rota_clients_id_selected: idSchema,
});
export type ClientSelect = z.infer<typeof clientSelectSchema>;

/** POST /user/api/auth/v1/request-access. */
export const accessRequestCreateSchema = z.object({
  name: z
    .string({ error: msg('required_name') })
    .trim()
    .min(1, msg('required_name'))
    .max(120, msg('too_long')),
  email: emailSchema,
  client_name: z
    .string({ error: msg('required_company') })
    .trim()
    .min(1, msg('required_company'))
    .max(120, msg('too_long')),
  message: z.string().trim().max(2000, msg('too_long')).optional(),
});
export type AccessRequestCreate = z.infer<typeof accessRequestCreateSchema>;
