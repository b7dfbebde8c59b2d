import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  robotFieldCreateSchema,
  robotFieldListQuerySchema,
  robotFieldSchema,
  robotFieldUpdateSchema,
} from '@rota/contract';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import type { RobotFieldService } from './service.js';

/** /api/rota/robot/field/api/v1, guarded by ROBOS.* */
export const robotFieldRoutes: FastifyPluginAsyncZod<{ fields: RobotFieldService }> = async (
  app,
  { fields },
) => {
  registerCrudRoutes(app, {
    area: 'ROBOS',
    tag: 'robot fields',
    noun: 'robot field',
    item: robotFieldSchema,
    listQuery: robotFieldListQuerySchema,
    create: {
      body: robotFieldCreateSchema,
      summary: 'Add an input to a robot',
      run: (scope, input, author) => fields.create(scope, input, author),
    },
    update: robotFieldUpdateSchema,
    service: fields,
  });
};
