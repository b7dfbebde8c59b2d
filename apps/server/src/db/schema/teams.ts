import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { tenant } from './clients.js';
import { rotaRobots } from './robots.js';
import { users } from './users.js';

/** A team gathers robots and users of one client; a member sees only the team's robots. */
export const teams = pgTable(
  'teams',
  {
    teams_id: integer('teams_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    name: text('name').notNull(),
    description: text('description'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [uniqueIndex('teams_client_name_key').on(t.rota_clients_id, sql`lower(${t.name})`)],
);

export const teamRobots = pgTable(
  'team_robots',
  {
    team_robots_id: integer('team_robots_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    teams_id: integer('teams_id')
      .notNull()
      .references(() => teams.teams_id, { onDelete: 'cascade' }),
    rota_robots_id: integer('rota_robots_id')
      .notNull()
      .references(() => rotaRobots.rota_robots_id, { onDelete: 'cascade' }),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('team_robots_team_robot_key').on(t.teams_id, t.rota_robots_id),
    index('team_robots_robot_idx').on(t.rota_robots_id),
  ],
);

export const teamUsers = pgTable(
  'team_users',
  {
    team_users_id: integer('team_users_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    teams_id: integer('teams_id')
      .notNull()
      .references(() => teams.teams_id, { onDelete: 'cascade' }),
    users_id: integer('users_id')
      .notNull()
      .references(() => users.users_id, { onDelete: 'cascade' }),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('team_users_team_user_key').on(t.teams_id, t.users_id),
    index('team_users_user_client_idx').on(t.users_id, t.rota_clients_id),
  ],
);
