import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  teamCreateSchema,
  teamListQuerySchema,
  teamSchema,
  teamUpdateSchema,
} from '@rota/contract';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import type { TeamService } from './service.js';

/** /api/teams/api/v1, guarded by USUARIOS.*. */
export const teamRoutes: FastifyPluginAsyncZod<{ teams: TeamService }> = async (app, { teams }) => {
  registerCrudRoutes(app, {
    area: 'USUARIOS',
    tag: 'teams',
    noun: 'team',
    item: teamSchema,
    listQuery: teamListQuerySchema,
    create: {
      body: teamCreateSchema,
      summary: 'Create a team, with its robots and users at once',
      run: (scope, input, author) => teams.create(scope, input, author),
    },
    update: teamUpdateSchema,
    service: teams,
    summaries: {
      index: 'List teams with how many robots and users each holds',
      show: 'One team, with the ids of its robots and users',
      update: 'Change a team; `robots` / `users`, when sent, replace its whole sets',
      delete: 'Delete a team (its members see every robot again unless in another team)',
    },
  });
};
