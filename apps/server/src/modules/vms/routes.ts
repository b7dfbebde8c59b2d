import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  vmCountSchema,
  vmCreateSchema,
  vmListQuerySchema,
  vmSchema,
  vmUpdateSchema,
} from '@rota/contract';
import { scopeOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import type { VmService } from './service.js';

const tags = ['vms'];
const security = bearerSecurity;

/** /api/rota/vm/api/v1, guarded by AGENTES.* */
export const vmRoutes: FastifyPluginAsyncZod<{ vms: VmService }> = async (app, { vms }) => {
  registerCrudRoutes(app, {
    area: 'AGENTES',
    tag: 'vms',
    noun: 'VM',
    item: vmSchema,
    listQuery: vmListQuerySchema,
    create: {
      body: vmCreateSchema,
      summary: 'Create a VM',
      run: (scope, input, author) => vms.create(scope, input, author),
    },
    update: vmUpdateSchema,
    service: vms,
  });

  app.post(
    '/count',
    {
      config: { permissions: ['AGENTES.LIST'] },
      schema: {
        tags,
        security,
        summary: 'How many VMs the client has, active (an agent heard from) and inactive',
        response: { 200: vmCountSchema, ...errorResponses },
      },
    },
    async (request) => vms.count(scopeOf(request)),
  );
};
