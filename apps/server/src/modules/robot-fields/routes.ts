import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  robotFieldCreateSchema,
  robotFieldListQuerySchema,
  robotFieldSchema,
  robotFieldUpdateSchema,
} from '@rota/contract';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import type { Services } from '../../http/services.js';

/** /api/rota/robot/field/api/v1 (DESIGN §4), guarded by ROBOS.* */
export const robotFieldRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  const { robotFields: fields } = services;

  registerCrudRoutes(app, {
    area: 'ROBOS',
    tag: 'robot fields',
    noun: 'robot field',
    item: robotFieldSchema,
    listQuery: robotFieldListQuerySchema,
    create: {
      body: robotFieldCreateSchema,
      summary: 'Add an input to a robot',
      run: (scope, input) => fields.create(scope, input),
    },
    update: robotFieldUpdateSchema,
    service: fields,
    audit: { log: services.audit, entity: 'robot_field', idKey: 'rota_robot_fields_id' },
  });
};
