import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idSchema,
  listResponseSchema,
  messageResponseSchema,
  sessionListQuerySchema,
  translateMessage,
  userSessionSchema,
} from '@rota/contract';
import { actorOf, authorOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { AuthService } from './service.js';

const tags = ['auth'];
const security = bearerSecurity;
// One's sessions are a session's business: an API key is no session (403).
const config = { noApiKey: true } as const;

/** /api/user/api/auth/v1/sessions: the caller's own sessions. */
export const sessionRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (
  app,
  { auth },
) => {
  app.post(
    '/index',
    {
      config,
      schema: {
        tags,
        security,
        summary:
          'A page of the caller’s live sessions: this one first (`current`), then the others newest first',
        body: sessionListQuerySchema,
        response: { 200: listResponseSchema(userSessionSchema), ...errorResponses },
      },
    },
    async (request) => auth.listSessions(actorOf(request), request.body),
  );

  app.post(
    '/revoke',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'End one of the caller’s own sessions',
        body: z.object({ id: idSchema }),
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await auth.revokeOwnSession(actorOf(request), request.body.id, authorOf(request));
      return { message: translateMessage(request.lang, 'session_revoked') };
    },
  );

  app.post(
    '/revoke-others',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'End every session of the caller but this one',
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await auth.revokeOtherSessions(actorOf(request), authorOf(request));
      return { message: translateMessage(request.lang, 'sessions_revoked') };
    },
  );
};
