import { sql, type SQL } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { rotaRobots } from '../../db/schema/robots.js';

const qb = new QueryBuilder();

/**
 * Read-only: what other modules may join on to show, search or run a robot (PostgreSQL inlines
 * it, so a join on it plans as a join on the table). Writes go through RobotService.
 */
export const robotSummaries = qb
  .select({
    rota_robots_id: rotaRobots.rota_robots_id,
    rota_clients_id: rotaRobots.rota_clients_id,
    name: rotaRobots.name,
    description: rotaRobots.description,
    executor: rotaRobots.executor,
    remote_root: rotaRobots.remote_root,
    active: rotaRobots.active,
    current_version_id: rotaRobots.rota_robot_versions_id_current,
    rota_packages_id: rotaRobots.rota_packages_id,
    follow_latest: rotaRobots.follow_latest,
    task_risk_minutes: rotaRobots.task_risk_minutes,
    stall_minutes: rotaRobots.stall_minutes,
    stall_action: rotaRobots.stall_action,
    required_labels: rotaRobots.required_labels,
  })
  .from(rotaRobots)
  .as('robot_summaries');

/** A scalar subquery: the `task_retries` of the robot `robotId` names (a column or a value). */
export function taskRetriesOf(robotId: SQL | unknown): SQL {
  return sql`(select ${rotaRobots.task_retries} from ${rotaRobots} where ${rotaRobots.rota_robots_id} = ${robotId})`;
}

/**
 * A scalar subquery: the `required_labels` of the robot `robotId` names (a column or a value);
 * null when there is no such robot.
 */
export function requiredLabelsOf(robotId: SQL | unknown): SQL {
  return sql`(select ${rotaRobots.required_labels} from ${rotaRobots} where ${rotaRobots.rota_robots_id} = ${robotId})`;
}

/** A scalar subquery: the largest `task_risk_minutes` of any robot (0 when none has one). */
export function largestTaskRiskMinutes(): SQL {
  return sql`(select coalesce(max(${rotaRobots.task_risk_minutes}), 0) from ${rotaRobots})`;
}
