import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  dataResponseSchema,
  idBodySchema,
  listResponseSchema,
  profileListQuerySchema,
  profileSchema,
} from '@rota/contract';
import { scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { Services } from '../../http/services.js';

const tags = ['profiles'];

/** Under /api/user/profile/api/v1: reading the selected client's profiles. */
export const profileRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  app.post(
    '/index',
    {
      config: { permissions: ['USUARIOS.LIST'] },
      schema: {
        tags,
        summary: 'List the profiles of the selected client',
        security: bearerSecurity,
        body: profileListQuerySchema.default({ page: 1, per_page: 20, order: 'asc', sort: 'name' }),
        response: { 200: listResponseSchema(profileSchema), ...errorResponses },
      },
    },
    async (request) => services.profiles.list(scopeOf(request), request.body),
  );

  app.post(
    '/show',
    {
      config: { permissions: ['USUARIOS.LIST'] },
      schema: {
        tags,
        summary: 'One profile of the selected client',
        security: bearerSecurity,
        body: idBodySchema,
        response: { 200: dataResponseSchema(profileSchema), ...errorResponses },
      },
    },
    async (request) => ({ data: await services.profiles.show(scopeOf(request), request.body.id) }),
  );
};
