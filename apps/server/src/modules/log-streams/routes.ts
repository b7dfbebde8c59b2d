import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idBodySchema,
  logStreamCreateSchema,
  logStreamListQuerySchema,
  logStreamSchema,
  logStreamTestSchema,
  logStreamUpdateSchema,
  translateMessage,
} from '@rota/contract';
import { actorOf, scopeOf } from '../../http/auth.js';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { LogStreamService } from './service.js';

/**
 * /api/rota/log-stream/api/v1: the client's syslog destinations, guarded by USUARIOS.* like
 * the alert rules (both send the client's events outside), and "test".
 */
export const logStreamRoutes: FastifyPluginAsyncZod<{ logStreams: LogStreamService }> = async (
  app,
  { logStreams },
) => {
  registerCrudRoutes(app, {
    area: 'USUARIOS',
    tag: 'log-streams',
    noun: 'log stream',
    item: logStreamSchema,
    listQuery: logStreamListQuerySchema,
    create: {
      body: logStreamCreateSchema,
      summary:
        'Create a log stream: the client\u2019s audit records and run events as RFC 5424 syslog messages (one JSON object each) over TCP or TLS, octet-counted (RFC 6587)',
      run: (scope, input, author) => logStreams.create(scope, input, author),
    },
    update: logStreamUpdateSchema,
    service: logStreams,
    summaries: {
      update:
        'Change a log stream; `ca_certificate` left out keeps the one kept, null removes it (never answered: `ca_certificate_set` says whether one is kept)',
    },
  });

  app.post(
    '/test',
    {
      config: { permissions: ['USUARIOS.UPDATE'] },
      schema: {
        tags: ['log-streams'],
        security: bearerSecurity,
        summary:
          'Send one test message to the stream now, once (never retried): `delivered`, and `last_error` only "not_delivered" or "destination_not_allowed" (the transport\u2019s detail goes to the server log). 5 a minute per user, 20 per client (429).',
        body: idBodySchema,
        response: {
          200: z.object({ message: z.string(), data: logStreamTestSchema }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const data = await logStreams.sendTest(
        scopeOf(request),
        actorOf(request).user.users_id,
        request.body.id,
      );
      return {
        message: translateMessage(
          request.lang,
          data.delivered ? 'log_stream_test_sent' : 'log_stream_test_failed',
        ),
        data,
      };
    },
  );
};
