import { z } from 'zod';
import { meResponseSchema } from './auth.js';
import { COLOR_SCHEMES, LANGUAGES } from './constants.js';
import { msg } from './messages.js';
import { userUpdateSchema } from './users.js';

/**
 * PUT /user/api/v1/account/update: one's own name, last name, picture removal (`avatar: null`),
 * language and colour scheme. Any subset; `null` language or scheme: not chosen.
 * The password keeps PUT /user/api/v1/update/password, the picture upload POST /avatar.
 */
export const accountUpdateSchema = z.object({
  name: userUpdateSchema.shape.name,
  last_name: userUpdateSchema.shape.last_name,
  avatar: z.null({ error: msg('invalid_value') }).optional(),
  language: z
    .enum(LANGUAGES, { error: msg('invalid_value') })
    .nullable()
    .optional(),
  color_scheme: z
    .enum(COLOR_SCHEMES, { error: msg('invalid_value') })
    .nullable()
    .optional(),
});
export type AccountUpdate = z.infer<typeof accountUpdateSchema>;

/** The account as `me` answers it, after the change. */
export const accountUpdateResponseSchema = z.object({
  message: z.string(),
  data: meResponseSchema,
});
export type AccountUpdateResponse = z.infer<typeof accountUpdateResponseSchema>;
