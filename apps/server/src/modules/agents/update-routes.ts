import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  agentAutoUpdateResponseSchema,
  agentAutoUpdateSchema,
  agentUpdateRequestResponseSchema,
  agentUpdateRequestSchema,
  translateMessage,
} from '@rota/contract';
import { z } from 'zod';
import { authorOf, scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { AgentUpdateService } from './updates.js';

const tags = ['agents'];
const security = bearerSecurity;
const config = { permissions: ['AGENTES.UPDATE'] as const };

/** /api/rota/node/api/v1: agents updating themselves, guarded by AGENTES.UPDATE. */
export const agentUpdateRoutes: FastifyPluginAsyncZod<{ updates: AgentUpdateService }> = async (
  app,
  { updates },
) => {
  app.post(
    '/update',
    {
      config,
      schema: {
        tags,
        security,
        summary:
          'Ask agents to update themselves between runs: by ids, a VM’s, or all of the client’s (exactly one); answers how many were asked',
        // PUT …/update is the agent's own change (rename, move): this one names its request.
        operationId: 'agentsRequestUpdate',
        body: agentUpdateRequestSchema,
        response: { 200: agentUpdateRequestResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const requested = await updates.request(scopeOf(request), request.body, authorOf(request));
      return {
        message: translateMessage(request.lang, 'agents_update_requested', {
          count: String(requested),
        }),
        data: { requested },
      };
    },
  );

  app.post(
    '/auto_update',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Turn the client’s automatic agent updates on or off',
        body: agentAutoUpdateSchema,
        response: { 200: agentAutoUpdateResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      await updates.setAutoUpdate(scope, request.body.enabled, authorOf(request));
      return {
        data: { enabled: request.body.enabled, shipped_version: await updates.shippedVersion() },
      };
    },
  );

  app.post(
    '/auto_update/show',
    {
      config: { permissions: ['AGENTES.LIST'] as const },
      schema: {
        tags,
        security,
        summary:
          'Whether the client’s agents update on their own, and the version this server ships',
        body: z.object({}).optional(),
        response: { 200: agentAutoUpdateResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({
      data: {
        enabled: await updates.autoUpdate(scopeOf(request)),
        shipped_version: await updates.shippedVersion(),
      },
    }),
  );
};
