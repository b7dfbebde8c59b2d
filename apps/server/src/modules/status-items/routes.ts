import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  dataResponseSchema,
  idBodySchema,
  listResponseSchema,
  statusItemListQuerySchema,
  statusItemSchema,
  statusItemUpdateSchema,
  statusPaletteResponseSchema,
} from '@rota/contract';
import { authorOf, scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { StatusItemService } from './service.js';

const tags = ['status items'];
const security = bearerSecurity;

/**
 * /api/rota/status/item/api/v1: configuration items, guarded by USUARIOS.LIST and
 * USUARIOS.UPDATE. No create or delete: every client has one item per status.
 */
export const statusItemRoutes: FastifyPluginAsyncZod<{ statusItems: StatusItemService }> = async (
  app,
  { statusItems },
) => {
  app.post(
    '/index',
    {
      config: { permissions: ['USUARIOS.LIST'] },
      schema: {
        tags,
        security,
        summary: 'List the status items: each execution status’s category, label and colour',
        body: statusItemListQuerySchema,
        response: { 200: listResponseSchema(statusItemSchema), ...errorResponses },
      },
    },
    async (request) => statusItems.list(scopeOf(request), request.body),
  );

  app.post(
    '/show',
    {
      config: { permissions: ['USUARIOS.LIST'] },
      schema: {
        tags,
        security,
        summary: 'One status item',
        body: idBodySchema,
        response: { 200: dataResponseSchema(statusItemSchema), ...errorResponses },
      },
    },
    async (request) => ({ data: await statusItems.show(scopeOf(request), request.body.id) }),
  );

  app.put(
    '/update',
    {
      config: { permissions: ['USUARIOS.UPDATE'] },
      schema: {
        tags,
        security,
        summary: 'Change a status item’s category, label (blank: the status’s name) or colour',
        body: statusItemUpdateSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await statusItems.update(scopeOf(request), request.body, authorOf(request));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/palette',
    {
      // Badges and charts need the colours wherever executions show: a session is enough.
      schema: {
        tags,
        security,
        summary: 'How every execution status reads in the client (colour, label, category)',
        response: { 200: statusPaletteResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ data: await statusItems.palette(scopeOf(request)) }),
  );
};
