import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken, resolveActor } from '../../http/auth.js';
import { AppError } from '../../lib/errors.js';
import type { ApiKeyService } from '../api-keys/service.js';
import type { AuthService } from '../auth/service.js';
import { contentDisposition } from '../../http/multipart-form.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { BackupService } from './service.js';

const tags = ['backup'];

/** /api/rota/backup/api/v1: backups of the embedded database, for platform administrators. */
export const backupRoutes: FastifyPluginAsyncZod<{
  backups: BackupService;
  auth: Pick<AuthService, 'sessionOf' | 'touchSession'>;
  apiKeys: Pick<ApiKeyService, 'identify'>;
}> = async (app, { backups, auth, apiKeys }) => {
  app.post(
    '/create',
    {
      // Authenticated here: the local operator's token is no session.
      config: { public: true },
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'A backup of the embedded database and its blobs, taken now',
        description:
          'A gzipped tar (`npm run restore -- --in FILE` restores it into a new DATA_DIR), for a platform administrator’s session or the token the server wrote in DATA_DIR/server.json. `x-rota-key-fingerprint` names the secret key its secrets are sealed with. On PostgreSQL: 409 `backup_on_postgres` (use pg_dump).',
        // A stream is sent as it is; the schema only documents the answer.
        response: { 200: z.any().describe('The backup archive'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const token = bearerToken(request);
      if (!token) throw new AppError('unauthorized');
      const caller = (await backups.isLocalOperator(token))
        ? ('local-operator' as const)
        : await resolveActor(auth, token, apiKeys);
      if (caller !== 'local-operator' && caller.user.password_change_required)
        throw new AppError('password_change_required');
      const backup = await backups.create(caller);
      request.log.info(
        {
          by: caller === 'local-operator' ? caller : caller.user.users_id,
          schema: backup.manifest.schema,
        },
        'backup taken',
      );
      return reply
        .header('content-type', 'application/gzip')
        .header('content-disposition', contentDisposition(backup.fileName))
        .header('x-rota-key-fingerprint', backup.manifest.secret_key_fingerprint)
        .send(backup.stream);
    },
  );
};
