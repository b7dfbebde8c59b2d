import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  parameterCreateSchema,
  parameterListQuerySchema,
  parameterSchema,
  parameterUpdateSchema,
} from '@rota/contract';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import type { ParameterService } from './service.js';

/** /api/rota/parameter/api/v1, guarded by PARAMETROS.* */
export const parameterRoutes: FastifyPluginAsyncZod<{ parameters: ParameterService }> = async (
  app,
  { parameters },
) => {
  registerCrudRoutes(app, {
    area: 'PARAMETROS',
    tag: 'parameters',
    noun: 'parameter',
    item: parameterSchema,
    listQuery: parameterListQuerySchema,
    create: {
      body: parameterCreateSchema,
      summary: 'Create a parameter with a value or a password (sealed at rest)',
      run: (scope, input, author) => parameters.create(scope, input, author),
    },
    update: parameterUpdateSchema,
    service: parameters,
    summaries: {
      index: 'List parameters; passwords show only as `has_password`',
      update: 'Change a parameter; a value replaces a password and a password a value',
    },
  });
};
