import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientSelectSchema, passwordUpdateSchema } from '@rota/contract';
import { actorOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { Services } from '../../http/services.js';

const tags = ['users'];

/** Under /api/user/api/v1 (the rest of the users area comes with the administration issue). */
export const userRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  app.put(
    '/update/password',
    {
      config: { allowPasswordChangePending: true },
      schema: {
        tags,
        summary: 'Change one’s own password (asks for the current one)',
        security: bearerSecurity,
        body: passwordUpdateSchema,
        response: {
          204: z.null().describe('Changed'),
          400: errorResponses[400],
          401: errorResponses[401],
        },
      },
    },
    async (request, reply) => {
      await services.users.updateOwnPassword(actorOf(request), request.body);
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/client_select',
    {
      schema: {
        tags,
        summary: 'Select the client the console works for',
        security: bearerSecurity,
        body: clientSelectSchema,
        response: {
          204: z.null().describe('Selected'),
          400: errorResponses[400],
          401: errorResponses[401],
          403: errorResponses[403],
        },
      },
    },
    async (request, reply) => {
      await services.users.selectClient(actorOf(request), request.body);
      return reply.status(204).send(null);
    },
  );
};
