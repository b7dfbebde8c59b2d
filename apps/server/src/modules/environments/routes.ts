import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  dataResponseSchema,
  environmentCreateSchema,
  environmentListQuerySchema,
  environmentSchema,
  environmentTestResultSchema,
  environmentTestSchema,
  environmentUpdateSchema,
} from '@rota/contract';
import { actorOf, scopeOf } from '../../http/auth.js';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { EnvironmentService } from './service.js';

/** /api/rota/env/api/v1, guarded by USUARIOS.*. */
export const environmentRoutes: FastifyPluginAsyncZod<{
  environments: EnvironmentService;
}> = async (app, { environments }) => {
  registerCrudRoutes(app, {
    area: 'USUARIOS',
    tag: 'environments',
    noun: 'environment',
    item: environmentSchema,
    listQuery: environmentListQuerySchema,
    create: {
      body: environmentCreateSchema,
      summary: 'Create an environment; `db_pass` and `rota_token` are sealed at rest',
      run: (scope, input, author) => environments.create(scope, input, author),
    },
    update: environmentUpdateSchema,
    service: environments,
    summaries: {
      index: 'List environments; secrets show only as `has_db_pass` and `has_rota_token`',
      update:
        'Change an environment; a secret sent replaces the stored one, `null` clears it, leaving it out keeps it',
    },
  });

  app.post(
    '/test',
    {
      // Whoever may change the settings may try them: the call uses the stored password and
      // makes this server open a connection to the host the environment names.
      config: { permissions: ['USUARIOS.UPDATE'] },
      schema: {
        tags: ['environments'],
        security: bearerSecurity,
        summary:
          'Try the PostgreSQL the environment describes (5 s at most): `ok` with the server version, PostgreSQL’s own error, or a generic "no PostgreSQL server answered". The stored `db_pass` is used only for the host, port, user and database it was saved for; otherwise send `db_pass` (400 without it). Link-local and metadata addresses: 400. 10 tries a minute per user (429).',
        body: environmentTestSchema,
        response: { 200: dataResponseSchema(environmentTestResultSchema), ...errorResponses },
      },
    },
    async (request) => ({
      data: await environments.test(
        scopeOf(request),
        actorOf(request).user.users_id,
        request.body,
        request.lang,
        request.log,
      ),
    }),
  );
};
