import { z } from 'zod';
import { listQuerySchema } from './common.js';
import { permissionSchema } from './permissions.js';

/** A profile: a named permission set inside one client (DESIGN §5). */
export const profileSchema = z.object({
  profiles_id: z.number().int(),
  rota_clients_id: z.number().int(),
  name: z.string(),
  permissions: z.array(permissionSchema),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Profile = z.infer<typeof profileSchema>;

export const profileSortColumns = ['name', 'created_at'] as const;
export const profileListQuerySchema = listQuerySchema.extend({
  sort: z.enum(profileSortColumns).default('name'),
});
export type ProfileListQuery = z.infer<typeof profileListQuerySchema>;
