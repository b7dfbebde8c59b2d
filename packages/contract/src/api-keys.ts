import { z } from 'zod';
import { idSchema, listQuerySchema, requiredTextSchema } from './common.js';
import { msg } from './messages.js';
import { permissionSchema } from './profiles.js';

/** Every personal API key starts so (and Rota tells it from a session token by it). */
export const API_KEY_PREFIX = 'rota_pat_';

/** A user's personal API key for the client selected when it was made. */
export const apiKeySchema = z.object({
  user_api_keys_id: z.number().int(),
  users_id: z.number().int(),
  user_name: z.string(),
  name: z.string(),
  key_hint: z.string(),
  /** null: all the user holds in the client, whatever that is when the key is used. */
  permissions: z.array(permissionSchema).nullable(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  created_at: z.string(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyWithSecretSchema = apiKeySchema.extend({ key: z.string() });
export type ApiKeyWithSecret = z.infer<typeof apiKeyWithSecretSchema>;

export const apiKeyCreateSchema = z.object({
  name: requiredTextSchema(120, 'required_name'),
  /** An instant in the future; left out: the key does not expire. */
  expires_at: z.iso
    .datetime({ offset: true, error: msg('invalid_date') })
    .refine((v) => Number(v.slice(0, 4)) > 1 && Number(v.slice(0, 4)) < 10000, msg('invalid_date'))
    .nullish(),
  /** A subset of what the user holds in the selected client; left out: all of them. */
  permissions: z
    .array(permissionSchema, { error: msg('invalid_value') })
    .min(1, msg('required_permissions'))
    .transform((list) => [...new Set(list)])
    .nullish(),
});
export type ApiKeyCreate = z.infer<typeof apiKeyCreateSchema>;

export const apiKeyListQuerySchema = listQuerySchema.extend({
  sort: z.enum(['name', 'created_at', 'last_used_at']).default('created_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
  /** Administrators (USUARIOS.LIST): every key of the client instead of their own. */
  all: z.boolean({ error: msg('invalid_value') }).optional(),
});
export type ApiKeyListQuery = z.infer<typeof apiKeyListQuerySchema>;

export const apiKeyRevokeSchema = z.object({ id: idSchema });
export type ApiKeyRevoke = z.infer<typeof apiKeyRevokeSchema>;
