import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  profileCreateSchema,
  profileListQuerySchema,
  profileSchema,
  profileUpdateSchema,
} from '@rota/contract';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import type { Services } from '../../http/services.js';

/** /api/user/profile/api/v1 (DESIGN §4): the selected client's profiles, USUARIOS.* */
export const profileRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  const { profiles } = services;
  registerCrudRoutes(app, {
    area: 'USUARIOS',
    tag: 'profiles',
    noun: 'profile',
    item: profileSchema,
    listQuery: profileListQuerySchema,
    create: {
      body: profileCreateSchema,
      summary: 'Create a profile: a name and permissions from the catalogue',
      run: (scope, input) => profiles.create(scope, input),
    },
    update: profileUpdateSchema,
    service: profiles,
    audit: { log: services.audit, entity: 'profile', idKey: 'profiles_id' },
    summaries: {
      index: 'List the profiles of the selected client (`users`: memberships holding each)',
      update: 'Rename a profile or change its permissions (applies at its holders’ next request)',
      delete: 'Delete a profile nobody holds',
    },
  });
};
