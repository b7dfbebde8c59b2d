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
import { authorOf, scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import type { AgentService } from './service.js';

const tags = ['agents'];
const security = bearerSecurity;

/** /api/rota/node/api/v1, guarded by AGENTES.* */
export const agentRoutes: FastifyPluginAsyncZod<{ agents: AgentService }> = async (
  app,
  { agents },
) => {
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
      run: (scope, input, author) => agents.create(scope, input, author),
    },
    update: agentUpdateSchema,
    service: agents,
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
      const token = await agents.rotateToken(scopeOf(request), request.body.id, authorOf(request));
      return { message: translateMessage(request.lang, 'token_rotated'), data: { token } };
    },
  );
};
