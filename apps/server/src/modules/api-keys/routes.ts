import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiKeyCreateSchema,
  apiKeyListQuerySchema,
  apiKeySchema,
  apiKeyRevokeSchema,
  apiKeyWithSecretSchema,
  createdResponseSchema,
  listResponseSchema,
  messageResponseSchema,
  translateMessage,
} from '@rota/contract';
import { actorOf, authorOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { ApiKeyService } from './service.js';

const tags = ['API keys'];
const security = bearerSecurity;
// Keys are managed from a session only: a key cannot make or revoke keys (403).
const config = { noApiKey: true } as const;

/** /api/user/apikey/api/v1: the caller's personal API keys in the selected client. */
export const apiKeyRoutes: FastifyPluginAsyncZod<{ apiKeys: ApiKeyService }> = async (
  app,
  { apiKeys },
) => {
  app.post(
    '/index',
    {
      config,
      schema: {
        tags,
        security,
        summary:
          'List one’s own API keys in the selected client; `all: true` (USUARIOS.LIST) every member’s',
        body: apiKeyListQuerySchema,
        response: { 200: listResponseSchema(apiKeySchema), ...errorResponses },
      },
    },
    async (request) => apiKeys.list(actorOf(request), request.body),
  );

  app.post(
    '/create',
    {
      config,
      schema: {
        tags,
        security,
        summary:
          'Create a personal API key for the selected client with some of one’s permissions; answers the key this once',
        body: apiKeyCreateSchema,
        response: { 201: createdResponseSchema(apiKeyWithSecretSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const data = await apiKeys.create(actorOf(request), request.body, authorOf(request));
      return reply.status(201).send({ message: translateMessage(request.lang, 'created'), data });
    },
  );

  app.post(
    '/revoke',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Revoke one’s own key, or any key of the client with USUARIOS.UPDATE',
        body: apiKeyRevokeSchema,
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await apiKeys.revoke(actorOf(request), request.body.id, authorOf(request));
      return { message: translateMessage(request.lang, 'api_key_revoked') };
    },
  );
};
