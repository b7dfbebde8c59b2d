import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  agentCreateSchema,
  agentListQuerySchema,
  agentSchema,
  agentTokenResponseSchema,
  agentUpdateSchema,
  agentWithTokenSchema,
  idBodySchema,
  translateMessage,
} from '@rota/contract';
import { scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import type { Services } from '../../http/services.js';

const tags = ['agents'];
const security = bearerSecurity;

/** /api/rota/node/api/v1 (DESIGN §4), guarded by AGENTES.* */
export const agentRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  const { agents } = services;

  registerCrudRoutes(app, {
    area: 'AGENTES',
    tag: 'agents',
    noun: 'agent',
    item: agentSchema,
    listQuery: agentListQuerySchema,
    create: {
      body: agentCreateSchema,
      answer: agentWithTokenSchema,
      summary: 'Create an agent; the answer holds its token, shown this once',
      run: (scope, input) => agents.create(scope, input),
    },
    update: agentUpdateSchema,
    service: agents,
    audit: { log: services.audit, entity: 'agent', idKey: 'rota_nodes_id' },
    summaries: {
      index: 'List agents with their VM and connectivity',
      update: 'Rename an agent or move it to another VM',
    },
  });

  app.post(
    '/rotate_token',
    {
      config: { permissions: ['AGENTES.UPDATE'] },
      schema: {
        tags,
        security,
        summary: 'Issue a new token for an agent; the old one stops working',
        body: idBodySchema,
        response: { 200: agentTokenResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const token = await agents.rotateToken(scopeOf(request), request.body.id);
      await services.audit.record(request, {
        action: 'rotate_token',
        entity: 'agent',
        entity_id: request.body.id,
      });
      return { message: translateMessage(request.lang, 'token_rotated'), data: { token } };
    },
  );
};
