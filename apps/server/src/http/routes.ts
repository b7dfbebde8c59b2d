import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { accessRequestRoutes } from '../modules/users/access-request-routes.js';
import { activityRoutes } from '../modules/executions/activity-routes.js';
import { agentProtocolRoutes } from '../modules/agent-protocol/agent-routes.js';
import { attendedRunRoutes } from '../modules/attended/routes.js';
import { maintenanceRoutes } from '../modules/maintenance/routes.js';
import { agentRoutes } from '../modules/agents/routes.js';
import { agentUpdateRoutes } from '../modules/agents/update-routes.js';
import { agentDownloadRoutes } from '../modules/agent-download/routes.js';
import { alertDeliveryRoutes, alertFeedRoutes, alertRoutes } from '../modules/alerts/routes.js';
import { logStreamRoutes } from '../modules/log-streams/routes.js';
import { apiKeyRoutes } from '../modules/api-keys/routes.js';
import { artifactActivityRoutes, artifactRunRoutes } from '../modules/artifacts/routes.js';
import { auditRoutes } from '../modules/audit/routes.js';
import { authRoutes } from '../modules/auth/routes.js';
import { calendarRoutes } from '../modules/calendars/routes.js';
import { backupRoutes } from '../modules/backup/routes.js';
import { clientRoutes } from '../modules/clients/routes.js';
import { dashboardRoutes } from '../modules/dashboard/routes.js';
import { environmentRoutes } from '../modules/environments/routes.js';
import { eventRoutes } from '../modules/events/routes.js';
import { healthRoutes } from '../modules/health/routes.js';
import { mfaRoutes, mfaSignInRoutes } from '../modules/mfa/routes.js';
import { oidcAuthRoutes, oidcMappingRoutes } from '../modules/oidc/routes.js';
import { parameterRoutes } from '../modules/parameters/routes.js';
import { profileRoutes } from '../modules/profiles/routes.js';
import { robotFieldRoutes } from '../modules/robot-fields/routes.js';
import { robotRoutes } from '../modules/robots/routes.js';
import { packageKeyRoutes } from '../modules/packages/key-routes.js';
import { packageRoutes } from '../modules/packages/routes.js';
import { robotVersionRoutes } from '../modules/robot-versions/routes.js';
import { runApiRoutes } from '../modules/run-api/run-api-routes.js';
import { schedulingRoutes } from '../modules/schedulings/routes.js';
import { schedulingVmRoutes } from '../modules/schedulings/vm-routes.js';
import { sessionRoutes } from '../modules/auth/session-routes.js';
import { statusItemRoutes } from '../modules/status-items/routes.js';
import { taskRoutes } from '../modules/tasks/routes.js';
import { teamRobotRoutes, teamUserRoutes } from '../modules/teams/member-routes.js';
import { teamRoutes } from '../modules/teams/routes.js';
import { triggerRoutes } from '../modules/triggers/routes.js';
import { userClientRoutes } from '../modules/user-clients/routes.js';
import { userRoutes } from '../modules/users/routes.js';
import { vmRoutes } from '../modules/vms/routes.js';
import type { AppOptions } from './app.js';
import type { Services } from './services.js';

/**
 * Every API route under `/api`, by prefix: one line a module, each handed the services it calls.
 * The permission each route needs is declared on the route itself (`config.permissions`), and
 * test/helpers/endpoint-table.ts lists them all.
 */
export async function registerApiRoutes(
  api: FastifyInstance,
  services: Services,
  options: Pick<AppOptions, 'db' | 'oidc' | 'secretBox' | 'config'>,
) {
  const { db } = options;
  await api.register(healthRoutes, { probe: () => db.execute(sql`select 1`) });
  await api.register(authRoutes, { auth: services.auth, prefix: '/user/api/auth/v1' });
  await api.register(sessionRoutes, { auth: services.auth, prefix: '/user/api/auth/v1/sessions' });
  await api.register(mfaSignInRoutes, {
    mfa: services.mfa,
    auth: services.auth,
    prefix: '/user/api/auth/v1',
  });
  await api.register(mfaRoutes, { mfa: services.mfa, prefix: '/user/mfa/api/v1' });
  await api.register(oidcAuthRoutes, {
    oidc: options.oidc ?? null,
    signIn: services.oidcSignIn,
    secretBox: options.secretBox,
    publicUrl: options.config.publicUrl,
    prefix: '/user/api/auth/v1/oidc',
  });
  await api.register(oidcMappingRoutes, {
    mappings: services.oidcMappings,
    prefix: '/user/oidc/mapping/api/v1',
  });
  await api.register(userRoutes, { users: services.users, prefix: '/user/api/v1' });
  await api.register(profileRoutes, {
    profiles: services.profiles,
    prefix: '/user/profile/api/v1',
  });
  await api.register(userClientRoutes, {
    userClients: services.userClients,
    prefix: '/user/client/api/v1',
  });
  await api.register(accessRequestRoutes, {
    accessRequests: services.accessRequests,
    prefix: '/user/access-request/api/v1',
  });
  await api.register(clientRoutes, {
    clients: services.clients,
    prefix: '/rota/client/api/v1',
  });
  await api.register(robotRoutes, {
    robots: services.robots,
    runs: services.runs,
    prefix: '/rota/robot/api/v1',
  });
  await api.register(robotVersionRoutes, {
    versions: services.robotVersions,
    prefix: '/rota/robot/version/api/v1',
  });
  await api.register(packageRoutes, {
    packages: services.packages,
    versions: services.robotVersions,
    prefix: '/rota/package/api/v1',
  });
  await api.register(packageKeyRoutes, {
    keys: services.packageKeys,
    prefix: '/rota/package/key/api/v1',
  });
  await api.register(robotFieldRoutes, {
    fields: services.robotFields,
    prefix: '/rota/robot/field/api/v1',
  });
  await api.register(taskRoutes, {
    tasks: services.tasks,
    prefix: '/rota/task/api/v1',
  });
  await api.register(vmRoutes, { vms: services.vms, prefix: '/rota/vm/api/v1' });
  await api.register(agentRoutes, { agents: services.agents, prefix: '/rota/node/api/v1' });
  await api.register(agentUpdateRoutes, {
    updates: services.agentUpdates,
    prefix: '/rota/node/api/v1',
  });
  await api.register(agentDownloadRoutes, {
    agentDownloads: services.agentDownloads,
    prefix: '/rota/agent/download/api/v1',
  });
  await api.register(schedulingRoutes, {
    schedulings: services.schedulings,
    runs: services.runs,
    prefix: '/rota/scheduling/api/v1',
  });
  await api.register(calendarRoutes, {
    calendars: services.calendars,
    prefix: '/rota/calendar/api/v1',
  });
  await api.register(schedulingVmRoutes, {
    schedulingVms: services.schedulingVms,
    prefix: '/rota/scheduling/vms/api/v1',
  });
  await api.register(parameterRoutes, {
    parameters: services.parameters,
    prefix: '/rota/parameter/api/v1',
  });
  await api.register(activityRoutes, {
    activity: services.activity,
    prefix: '/rota/activity/api/v1',
  });
  await api.register(dashboardRoutes, {
    dashboard: services.dashboard,
    prefix: '/rota/dashboard/api/v1',
  });
  await api.register(auditRoutes, { audit: services.audit, prefix: '/rota/audit/api/v1' });
  await api.register(environmentRoutes, {
    environments: services.environments,
    prefix: '/rota/env/api/v1',
  });
  await api.register(statusItemRoutes, {
    statusItems: services.statusItems,
    prefix: '/rota/status/item/api/v1',
  });
  await api.register(teamRoutes, { teams: services.teams, prefix: '/teams/api/v1' });
  await api.register(teamRobotRoutes, {
    teamRobots: services.teamRobots,
    prefix: '/teams/robots/api/v1',
  });
  await api.register(teamUserRoutes, {
    teamUsers: services.teamUsers,
    prefix: '/teams/users/api/v1',
  });
  await api.register(triggerRoutes, {
    triggers: services.triggers,
    prefix: '/rota/trigger/api/v1',
  });
  await api.register(apiKeyRoutes, {
    apiKeys: services.apiKeys,
    prefix: '/user/apikey/api/v1',
  });
  await api.register(eventRoutes, {
    liveHub: services.liveHub,
    auth: services.auth,
    prefix: '/rota/events/api/v1',
  });
  await api.register(agentProtocolRoutes, {
    dispatch: services.dispatch,
    agentDownloads: services.agentDownloads,
    blobs: services.blobs,
    attended: services.attended,
    prefix: '/rota/agent/api/v1',
  });
  await api.register(attendedRunRoutes, {
    attended: services.attended,
    prefix: '/rota/attended/api/v1',
  });
  await api.register(maintenanceRoutes, {
    maintenance: services.maintenance,
    prefix: '/rota/maintenance/api/v1',
  });
  await api.register(alertRoutes, { alerts: services.alerts, prefix: '/rota/alert/api/v1' });
  await api.register(logStreamRoutes, {
    logStreams: services.logStreams,
    prefix: '/rota/log-stream/api/v1',
  });
  await api.register(backupRoutes, {
    backups: services.backups,
    auth: services.auth,
    apiKeys: services.apiKeys,
    prefix: '/rota/backup/api/v1',
  });
  await api.register(alertDeliveryRoutes, {
    alerts: services.alerts,
    prefix: '/rota/alert/delivery/api/v1',
  });
  await api.register(alertFeedRoutes, {
    alerts: services.alerts,
    prefix: '/rota/alert/feed/api/v1',
  });
  await api.register(runApiRoutes, { runApi: services.runApi, prefix: '/rota/run/api/v1' });
  await api.register(artifactRunRoutes, {
    artifacts: services.artifacts,
    runApi: services.runApi,
    prefix: '/rota/run/api/v1/artifact',
  });
  await api.register(artifactActivityRoutes, {
    artifacts: services.artifacts,
    prefix: '/rota/activity/api/v1/artifact',
  });
}
