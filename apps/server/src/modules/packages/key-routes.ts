import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  packageKeyCreateSchema,
  packageKeyListQuerySchema,
  packageKeySchema,
  packageKeyUpdateSchema,
} from '@rota/contract';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import type { PackageKeyService } from './key-service.js';

/**
 * /api/rota/package/key/api/v1, guarded by USUARIOS.*: whoever may add a trusted key decides
 * what the client's robots may run, so it is a setting of the client, not of its robots.
 */
export const packageKeyRoutes: FastifyPluginAsyncZod<{ keys: PackageKeyService }> = async (
  app,
  { keys },
) => {
  registerCrudRoutes(app, {
    area: 'USUARIOS',
    tag: 'package keys',
    noun: 'trusted package key',
    item: packageKeySchema,
    listQuery: packageKeyListQuerySchema,
    update: packageKeyUpdateSchema,
    service: keys,
    create: {
      body: packageKeyCreateSchema,
      summary: 'Trust an Ed25519 public key (PEM) to sign packages',
      run: (scope, input, author) => keys.create(scope, input, author),
    },
    summaries: { update: 'Rename a trusted key', delete: 'Stop trusting a key for new uploads' },
  });
};
