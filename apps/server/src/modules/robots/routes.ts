import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  robotCreateSchema,
  robotListQuerySchema,
  robotSchema,
  robotUpdateSchema,
} from '@rota/contract';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import type { Services } from '../../http/services.js';

/** /api/rota/robot/api/v1 (DESIGN §4), guarded by ROBOS.* */
export const robotRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  const { robots } = services;

  registerCrudRoutes(app, {
    area: 'ROBOS',
    tag: 'robots',
    noun: 'robot',
    item: robotSchema,
    listQuery: robotListQuerySchema,
    create: {
      body: robotCreateSchema,
      summary: 'Create a robot',
      run: (scope, input) => robots.create(scope, input),
    },
    update: robotUpdateSchema,
    service: robots,
    summaries: {
      delete: 'Delete a robot with its versions, fields and tasks',
    },
  });
};
