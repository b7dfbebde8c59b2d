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
import { actorOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { Services } from '../../http/services.js';

const tags = ['access requests'];
const security = bearerSecurity;

/** /api/user/access-request/api/v1: platform administrators only (403 for anyone else). */
export const accessRequestRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  const { accessRequests, audit } = services;

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
      const actor = actorOf(request);
      const { id } = request.body;
      const before = await accessRequests.show(actor, id);
      await accessRequests.update(actor, request.body);
      await audit.record(request, {
        action: 'update',
        entity: 'access_request',
        entity_id: id,
        before,
        after: await accessRequests.show(actor, id),
      });
      return reply.status(204).send(null);
    },
  );
};
