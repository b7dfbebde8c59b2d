import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { LiveEvent } from '@rota/contract';
import { actorOf, bearerToken, resolveActor, scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { AuthService } from '../auth/service.js';
import { hearsLiveEvent } from './live-filter.js';
import type { LiveHub } from './live-hub.js';

const KEEP_ALIVE_MS = 15_000;

/** /api/rota/events/api/v1/stream: Server-Sent Events of the selected client (session only). */
export const eventRoutes: FastifyPluginAsyncZod<{ liveHub: LiveHub; auth: AuthService }> = async (
  app,
  { liveHub, auth },
) => {
  const open = new Set<ServerResponse>();
  app.addHook('onClose', async () => {
    for (const response of open) response.end();
  });

  app.get(
    '/stream',
    {
      schema: {
        tags: ['live'],
        security: bearerSecurity,
        summary: 'Live execution, log and agent changes (text/event-stream)',
        description:
          'Each event: `event: execution|log|agent` and `data: <json>` (see liveEventSchema). Lines starting with `:` keep the connection alive.',
        response: { ...errorResponses },
      },
    },
    async (request, reply) => {
      const token = bearerToken(request);
      // What the stream may show: re-read at every keep-alive, so a team or profile change (or
      // a session that ended, or another client selected) reaches an open stream within one
      // interval.
      let scope = scopeOf(request);
      let permissions: readonly string[] = actorOf(request).permissions;
      const clientId = scope.clientId;
      reply.hijack();
      const response = reply.raw;
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
        'x-request-id': request.id,
      });
      response.write(': connected\n\n');
      open.add(response);
      const send = (event: LiveEvent) => {
        if (!hearsLiveEvent(event, scope, permissions)) return;
        response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      };
      const remove = liveHub.add(clientId, send);
      const refresh = async () => {
        const actor = token ? await resolveActor(auth, token).catch(() => null) : null;
        if (!actor?.scope || actor.scope.clientId !== clientId) {
          response.end();
          return;
        }
        scope = actor.scope;
        permissions = actor.permissions;
      };
      const keepAlive = setInterval(() => {
        response.write(': keep-alive\n\n');
        void refresh();
      }, KEEP_ALIVE_MS);
      const end = () => {
        clearInterval(keepAlive);
        remove();
        open.delete(response);
      };
      request.raw.once('close', end);
      response.once('close', end);
    },
  );
};
