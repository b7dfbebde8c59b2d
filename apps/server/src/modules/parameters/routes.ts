import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  parameterCreateSchema,
  parameterListQuerySchema,
  parameterSchema,
  parameterUpdateSchema,
} from '@rota/contract';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import type { Services } from '../../http/services.js';

/** /api/rota/parameter/api/v1 (DESIGN §4), guarded by PARAMETROS.* */
export const parameterRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  const { parameters } = services;

  registerCrudRoutes(app, {
    area: 'PARAMETROS',
    tag: 'parameters',
    noun: 'parameter',
    item: parameterSchema,
    listQuery: parameterListQuerySchema,
    create: {
      body: parameterCreateSchema,
      summary: 'Create a parameter with a value or a password (sealed at rest)',
      run: (scope, input) => parameters.create(scope, input),
    },
    update: parameterUpdateSchema,
    service: parameters,
    audit: { log: services.audit, entity: 'parameter', idKey: 'rota_parameters_id' },
    summaries: {
      index: 'List parameters; passwords show only as `has_password`',
      update: 'Change a parameter; a value replaces a password and a password a value',
    },
  });
};
