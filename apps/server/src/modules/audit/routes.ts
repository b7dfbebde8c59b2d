import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditLogListQuerySchema, auditLogSchema, listResponseSchema } from '@rota/contract';
import { scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import type { AuditService } from './service.js';

/** /api/rota/audit/api/v1: reading the selected client's audit log; nothing here writes. */
export const auditRoutes: FastifyPluginAsyncZod<{ audit: AuditService }> = async (
  app,
  { audit },
) => {
  app.post(
    '/index',
    {
      config: { permissions: ['USUARIOS.LIST'] },
      schema: {
        tags: ['audit'],
        summary: 'The audit log of the selected client, newest first, with filters',
        security: bearerSecurity,
        body: auditLogListQuerySchema.default({
          page: 1,
          per_page: 20,
          order: 'desc',
          sort: 'created_at',
        }),
        response: { 200: listResponseSchema(auditLogSchema), ...errorResponses },
      },
    },
    async (request) => audit.list(scopeOf(request), request.body),
  );
};
