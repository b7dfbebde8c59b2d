import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  userClientCreateSchema,
  userClientListQuerySchema,
  userClientSchema,
  userClientUpdateSchema,
} from '@rota/contract';
import { actorOf } from '../../http/auth.js';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import type { UserClientService } from './service.js';

/** /api/user/client/api/v1: memberships of the selected client, USUARIOS.* */
export const userClientRoutes: FastifyPluginAsyncZod<{ userClients: UserClientService }> = async (
  app,
  { userClients },
) => {
  registerCrudRoutes(app, {
    area: 'USUARIOS',
    tag: 'user clients',
    noun: 'membership',
    item: userClientSchema,
    listQuery: userClientListQuerySchema,
    create: {
      body: userClientCreateSchema,
      summary:
        'Add an existing user to the selected client with one of its profiles: a user the caller already sees (a member of a client where the caller may list users; any user for a platform administrator); any other id answers 404 like one that does not exist',
      run: (scope, input, author, request) =>
        userClients.create(scope, actorOf(request), input, author),
    },
    update: userClientUpdateSchema,
    service: userClients,
    summaries: {
      index: 'List the memberships of the selected client',
      update: 'Give the member another profile of the client (applies at their next request)',
      delete: 'Take a user out of the selected client (not their last client)',
    },
  });
};
