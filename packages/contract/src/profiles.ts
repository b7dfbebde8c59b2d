import { z } from 'zod';
import { idSchema, listQuerySchema, requiredTextSchema } from './common.js';
import { profileSortColumns } from './list-sorts.js';
import { msg } from './messages.js';
import { PERMISSIONS, type Permission } from './permissions.js';

/**
 * A permission's name. Kept out of permissions.ts, which the console's shell reads for its
 * constants alone and must not make evaluate zod before its first paint.
 */
export const permissionSchema = z.enum(PERMISSIONS as [Permission, ...Permission[]]);

/** A profile: a named permission set inside one client. */
export const profileSchema = z.object({
  profiles_id: z.number().int(),
  rota_clients_id: z.number().int(),
  name: z.string(),
  permissions: z.array(permissionSchema),
  /** Memberships holding this profile; a profile in use cannot be deleted. */
  users: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Profile = z.infer<typeof profileSchema>;

export const profileListQuerySchema = listQuerySchema.extend({
  sort: z.enum(profileSortColumns).default('name'),
});
export type ProfileListQuery = z.infer<typeof profileListQuerySchema>;

/** Permissions of a profile: a subset of the catalogue, each once. */
const permissionsSchema = z
  .array(permissionSchema, { error: msg('invalid_value') })
  .max(PERMISSIONS.length, msg('invalid_value'))
  .transform((list) => [...new Set(list)]);

export const profileCreateSchema = z.object({
  name: requiredTextSchema(120, 'required_name'),
  permissions: permissionsSchema.default([]),
});
export type ProfileCreate = z.infer<typeof profileCreateSchema>;

export const profileUpdateSchema = z.object({
  id: idSchema,
  name: requiredTextSchema(120, 'required_name').optional(),
  permissions: permissionsSchema.optional(),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** The profile every new client starts with, holding the whole catalogue. */
export const ADMINISTRATOR_PROFILE_NAME = 'Administrator';
