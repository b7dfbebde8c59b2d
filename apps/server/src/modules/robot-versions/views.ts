import { QueryBuilder } from 'drizzle-orm/pg-core';
import { rotaRobotVersions } from '../../db/schema/robot-versions.js';

const qb = new QueryBuilder();

/** Read-only: a version's package as runs and lists need it. Writes go through its service. */
export const packageSummaries = qb
  .select({
    rota_robot_versions_id: rotaRobotVersions.rota_robot_versions_id,
    rota_clients_id: rotaRobotVersions.rota_clients_id,
    rota_robots_id: rotaRobotVersions.rota_robots_id,
    rota_packages_id: rotaRobotVersions.rota_packages_id,
    status: rotaRobotVersions.status,
    version: rotaRobotVersions.version,
    sha256: rotaRobotVersions.sha256,
    size_bytes: rotaRobotVersions.size_bytes,
    format: rotaRobotVersions.format,
    signature: rotaRobotVersions.signature,
    rota_package_keys_id: rotaRobotVersions.rota_package_keys_id,
  })
  .from(rotaRobotVersions)
  .as('package_summaries');
