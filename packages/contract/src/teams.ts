import { z } from 'zod';
import {
  idSchema,
  listQuerySchema,
  optionalTextSchema,
  requiredIdSchema,
  requiredTextSchema,
} from './common.js';
import { msg } from './messages.js';

/**
 * A team gathers robots and users of one client. A user who belongs to a team of the selected
 * client sees only the robots of their teams (and those robots' tasks, schedulings and
 * executions); a user in no team sees every robot of the client.
 */
export const teamSchema = z.object({
  teams_id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  robots: z.number().int(),
  users: z.number().int(),
  /** `show` only: the team's robots and users, what its edit form starts from. */
  robot_ids: z.array(z.number().int()).optional(),
  user_ids: z.array(z.number().int()).optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Team = z.infer<typeof teamSchema>;

const ids = z.array(idSchema, { error: msg('invalid_value') }).max(10_000, msg('too_long'));

export const teamCreateSchema = z.object({
  name: requiredTextSchema(120, 'required_name'),
  description: optionalTextSchema(2000),
  /** Robots and users to add at once (also managed through teams/robots and teams/users). */
  robots: ids.optional(),
  users: ids.optional(),
});
export type TeamCreate = z.infer<typeof teamCreateSchema>;

export const teamUpdateSchema = z.object({
  id: idSchema,
  name: requiredTextSchema(120, 'required_name').optional(),
  description: optionalTextSchema(2000).optional(),
  /** When given, replaces the team's robots / users. */
  robots: ids.optional(),
  users: ids.optional(),
});
export type TeamUpdate = z.infer<typeof teamUpdateSchema>;

export const teamListQuerySchema = listQuerySchema.extend({
  sort: z.enum(['name', 'created_at']).default('name'),
});
export type TeamListQuery = z.infer<typeof teamListQuerySchema>;

/** /teams/robots/api/v1: a robot in a team. */
export const teamRobotSchema = z.object({
  team_robots_id: z.number().int(),
  teams_id: z.number().int(),
  rota_robots_id: z.number().int(),
  rota_robots_name: z.string(),
  created_at: z.string(),
});
export type TeamRobot = z.infer<typeof teamRobotSchema>;
export const teamRobotCreateSchema = z.object({
  teams_id: requiredIdSchema('required_team'),
  rota_robots_id: requiredIdSchema('required_robot'),
});
export type TeamRobotCreate = z.infer<typeof teamRobotCreateSchema>;
export const teamRobotListQuerySchema = listQuerySchema.extend({
  sort: z.enum(['rota_robots_name', 'created_at']).default('rota_robots_name'),
  teams_id: idSchema.optional(),
});
export type TeamRobotListQuery = z.infer<typeof teamRobotListQuerySchema>;

/** /teams/users/api/v1: a user in a team. */
export const teamUserSchema = z.object({
  team_users_id: z.number().int(),
  teams_id: z.number().int(),
  users_id: z.number().int(),
  name: z.string(),
  last_name: z.string(),
  created_at: z.string(),
});
export type TeamUser = z.infer<typeof teamUserSchema>;
export const teamUserCreateSchema = z.object({
  teams_id: requiredIdSchema('required_team'),
  users_id: requiredIdSchema('required_user'),
});
export type TeamUserCreate = z.infer<typeof teamUserCreateSchema>;
export const teamUserListQuerySchema = listQuerySchema.extend({
  sort: z.enum(['name', 'created_at']).default('name'),
  teams_id: idSchema.optional(),
});
export type TeamUserListQuery = z.infer<typeof teamUserListQuerySchema>;
