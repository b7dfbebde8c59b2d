import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  teamCreateSchema,
  teamListQuerySchema,
  teamSchema,
  teamUpdateSchema,
} from '@rota/contract';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import type { Services } from '../../http/services.js';

/** /api/teams/api/v1 (DESIGN §4), guarded by USUARIOS.* (DESIGN §5, §8). */
export const teamRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (
  app,
  { services },
) => {
  const { teams } = services;

  registerCrudRoutes(app, {
    area: 'USUARIOS',
    tag: 'teams',
    noun: 'team',
    item: teamSchema,
    listQuery: teamListQuerySchema,
    create: {
      body: teamCreateSchema,
      summary: 'Create a team, with its robots and users at once',
      run: (scope, input) => teams.create(scope, input),
    },
    update: teamUpdateSchema,
    service: teams,
    audit: { log: services.audit, entity: 'team', idKey: 'teams_id' },
    summaries: {
      index: 'List teams with how many robots and users each holds',
      show: 'One team, with the ids of its robots and users',
      update: 'Change a team; `robots` / `users`, when sent, replace its whole sets',
      delete: 'Delete a team (its members see every robot again unless in another team)',
    },
  });
};
