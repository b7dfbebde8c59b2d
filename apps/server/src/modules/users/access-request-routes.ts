import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accessRequestListQuerySchema,
  accessRequestSchema,
  accessRequestUpdateSchema,
  dataResponseSchema,
  idBodySchema,
  listResponseSchema,
} from '@rota/contract';
import { actorOf, authorOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { AccessRequestService } from './access-request-service.js';

const tags = ['access requests'];
const security = bearerSecurity;

/** /api/user/access-request/api/v1: platform administrators only (403 for anyone else). */
export const accessRequestRoutes: FastifyPluginAsyncZod<{
  accessRequests: AccessRequestService;
}> = async (app, { accessRequests }) => {
  app.post(
    '/index',
    {
      schema: {
        tags,
        security,
        summary: 'List the access requests, newest first; `status` filters',
        body: accessRequestListQuerySchema,
        response: { 200: listResponseSchema(accessRequestSchema), ...errorResponses },
      },
    },
    async (request) => accessRequests.list(actorOf(request), request.body),
  );

  app.post(
    '/show',
    {
      schema: {
        tags,
        security,
        summary: 'One access request',
        body: idBodySchema,
        response: { 200: dataResponseSchema(accessRequestSchema), ...errorResponses },
      },
    },
    async (request) => ({ data: await accessRequests.show(actorOf(request), request.body.id) }),
  );

  app.put(
    '/update',
    {
      schema: {
        tags,
        security,
        summary: 'Dismiss a request, mark it approved (its user was created), or reopen it',
        body: accessRequestUpdateSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await accessRequests.update(actorOf(request), request.body, authorOf(request));
      return reply.status(204).send(null);
    },
  );
};
