import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  profileCreateSchema,
  profileListQuerySchema,
  profileSchema,
  profileUpdateSchema,
} from '@rota/contract';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import type { ProfileService } from './service.js';

/** /api/user/profile/api/v1: the selected client's profiles, USUARIOS.* */
export const profileRoutes: FastifyPluginAsyncZod<{ profiles: ProfileService }> = async (
  app,
  { profiles },
) => {
  registerCrudRoutes(app, {
    area: 'USUARIOS',
    tag: 'profiles',
    noun: 'profile',
    item: profileSchema,
    listQuery: profileListQuerySchema,
    create: {
      body: profileCreateSchema,
      summary: 'Create a profile: a name and permissions from the catalogue',
      run: (scope, input, author) => profiles.create(scope, input, author),
    },
    update: profileUpdateSchema,
    service: profiles,
    summaries: {
      index: 'List the profiles of the selected client (`users`: memberships holding each)',
      update: 'Rename a profile or change its permissions (applies at its holders’ next request)',
      delete: 'Delete a profile nobody holds',
    },
  });
};
