import type { Permission } from '@rota/contract';

/**
 * The rows a call may name, made once in each client by the permission matrix test. Keep a kind
 * here for every tenant-owned resource an endpoint reads or writes by id.
 */
export interface Rows {
  client: number;
  robot: number;
  version: number;
  versionSha: string;
  /** The robot's package (made by its first upload). */
  package: number;
  packageKey: number;
  field: number;
  task: number;
  vm: number;
  agent: number;
  scheduling: number;
  schedulingVm: number;
  calendar: number;
  parameter: number;
  execution: number;
  profile: number;
  /** A user who belongs only to this client. */
  user: number;
  userClient: number;
  environment: number;
  team: number;
  teamRobot: number;
  teamUser: number;
  statusItem: number;
  accessRequest: number;
  alert: number;
  logStream: number;
  trigger: number;
}

/**
 * Who may call: a permission of the selected client's profile, any signed-in user,
 * a platform administrator, an agent token, a run token, or anyone.
 */
export type Guard =
  | Permission
  | 'session'
  | 'platform_admin'
  | 'agent'
  | 'run'
  /** A run trigger's token. */
  | 'trigger'
  | 'public';

export interface Endpoint {
  guard: Guard;
  /** A body that passes validation, naming the rows of the calling client (GET: the query). */
  body?: (rows: Rows) => unknown;
  /**
   * What the Default administrator gets when the body names the other client's rows: 404 for a
   * row of another client; 400 where the other client's row is a reference in a new row (its
   * field error says it does not exist). A string says why the check does not apply.
   */
  foreign: 404 | 400 | typeof LISTS_NOTHING | string;
  /** Refused to a personal API key (403 session_required): the route says `noApiKey`. */
  sessionOnly?: true;
}

/** A list filtered by another client's row answers an empty page, not that client's rows. */
export const LISTS_NOTHING = 'lists nothing';

const TODAY = new Date().toISOString().slice(0, 10);
const range = { startDate: TODAY, endDate: TODAY };
const NO_ROW = 'names no row of a client';
const OWN_ONLY = 'acts on the caller only';
const PLATFORM = 'platform-wide: not owned by a client';

/**
 * Every endpoint of the API, by `METHOD path` exactly as the OpenAPI document lists it. The
 * matrix test fails when a route exists that is not here (or the other way round), so a new
 * endpoint cannot ship without saying who may call it.
 */
export const ENDPOINTS: Record<string, Endpoint> = {
  'GET /api/health': { guard: 'public', foreign: NO_ROW },
  // Auth
  'POST /api/user/api/auth/v1/session': { guard: 'public', foreign: NO_ROW },
  'POST /api/user/api/auth/v1/me': { guard: 'session', foreign: OWN_ONLY },
  'POST /api/user/api/auth/v1/logout': { sessionOnly: true, guard: 'session', foreign: OWN_ONLY },
  'POST /api/user/api/auth/v1/recover-password': { guard: 'public', foreign: NO_ROW },
  'POST /api/user/api/auth/v1/check-code': { guard: 'public', foreign: NO_ROW },
  'POST /api/user/api/auth/v1/reset-password': { guard: 'public', foreign: NO_ROW },
  'POST /api/user/api/auth/v1/request-access': { guard: 'public', foreign: NO_ROW },
  // Single sign-on: the browser's redirects, and the platform's group mappings
  'GET /api/user/api/auth/v1/oidc/config': { guard: 'public', foreign: NO_ROW },
  'GET /api/user/api/auth/v1/oidc/start': { guard: 'public', foreign: NO_ROW },
  'GET /api/user/api/auth/v1/oidc/callback': { guard: 'public', foreign: NO_ROW },
  // One's own link to single sign-on (the test app has no provider: 404 oidc_not_configured)
  'GET /api/user/api/auth/v1/oidc/link': { sessionOnly: true, guard: 'session', foreign: OWN_ONLY },
  'POST /api/user/api/auth/v1/oidc/link/start': {
    sessionOnly: true,
    guard: 'session',
    foreign: OWN_ONLY,
  },
  'POST /api/user/api/auth/v1/oidc/link/delete': {
    sessionOnly: true,
    guard: 'session',
    body: () => ({ password: 'matrix-password' }),
    foreign: OWN_ONLY,
  },
  'POST /api/user/oidc/mapping/api/v1/index': {
    guard: 'platform_admin',
    body: () => ({}),
    foreign: PLATFORM,
  },
  'POST /api/user/oidc/mapping/api/v1/create': {
    guard: 'platform_admin',
    body: (r) => ({
      claim_value: 'matrix-group',
      rota_clients_id: r.client,
      profiles_id: r.profile,
    }),
    foreign: PLATFORM,
  },
  'PUT /api/user/oidc/mapping/api/v1/update': {
    guard: 'platform_admin',
    body: (r) => ({
      id: 1,
      claim_value: 'matrix-group',
      rota_clients_id: r.client,
      profiles_id: r.profile,
    }),
    foreign: PLATFORM,
  },
  'POST /api/user/oidc/mapping/api/v1/delete': {
    guard: 'platform_admin',
    body: () => ({ id: 1 }),
    foreign: PLATFORM,
  },
  // Second factor and sessions
  'POST /api/user/api/auth/v1/mfa': { guard: 'public', foreign: NO_ROW },
  'POST /api/user/api/auth/v1/mfa/enrol/start': { guard: 'public', foreign: NO_ROW },
  'POST /api/user/api/auth/v1/mfa/enrol/confirm': { guard: 'public', foreign: NO_ROW },
  'POST /api/user/api/auth/v1/sessions/index': {
    sessionOnly: true,
    guard: 'session',
    foreign: OWN_ONLY,
  },
  'POST /api/user/api/auth/v1/sessions/revoke': {
    sessionOnly: true,
    guard: 'session',
    body: () => ({ id: 1 }),
    foreign: 'one’s own sessions only (sessions tests)',
  },
  'POST /api/user/api/auth/v1/sessions/revoke-others': {
    sessionOnly: true,
    guard: 'session',
    foreign: OWN_ONLY,
  },
  'POST /api/user/mfa/api/v1/status': { sessionOnly: true, guard: 'session', foreign: OWN_ONLY },
  'POST /api/user/mfa/api/v1/enrol/start': {
    sessionOnly: true,
    guard: 'session',
    foreign: OWN_ONLY,
  },
  'POST /api/user/mfa/api/v1/enrol/confirm': {
    sessionOnly: true,
    guard: 'session',
    body: () => ({ code: '000000' }),
    foreign: OWN_ONLY,
  },
  'POST /api/user/mfa/api/v1/recovery-codes': {
    sessionOnly: true,
    guard: 'session',
    body: () => ({ code: '000000' }),
    foreign: OWN_ONLY,
  },
  'POST /api/user/mfa/api/v1/disable': {
    sessionOnly: true,
    guard: 'session',
    body: () => ({ code: '000000' }),
    foreign: OWN_ONLY,
  },
  'POST /api/user/mfa/api/v1/reset': {
    sessionOnly: true,
    guard: 'USUARIOS.UPDATE',
    body: (r) => ({ users_id: r.user }),
    foreign: 404,
  },
  'PUT /api/user/api/v1/update/password': {
    sessionOnly: true,
    guard: 'session',
    foreign: 'one’s own password; setting another user’s needs USUARIOS.UPDATE (users tests)',
  },
  'POST /api/user/profile/api/v1/index': {
    guard: 'USUARIOS.LIST',
    body: () => ({}),
    foreign: NO_ROW,
  },
  'POST /api/user/profile/api/v1/show': {
    guard: 'USUARIOS.LIST',
    body: (r) => ({ id: r.profile }),
    foreign: 404,
  },
  'PUT /api/user/api/v1/account/update': {
    sessionOnly: true,
    guard: 'session',
    foreign: 'one’s own account only, no id to name another (account tests)',
  },
  'PUT /api/user/api/v1/client_select': {
    sessionOnly: true,
    guard: 'session',
    foreign: 'a client the user is not in answers 403 client_not_member (auth tests)',
  },

  // Robots, versions, fields
  'POST /api/rota/robot/api/v1/index': { guard: 'ROBOS.LIST', body: () => ({}), foreign: NO_ROW },
  'POST /api/rota/robot/api/v1/show': {
    guard: 'ROBOS.LIST',
    body: (r) => ({ id: r.robot }),
    foreign: 404,
  },
  'POST /api/rota/robot/api/v1/create': {
    guard: 'ROBOS.CREATE',
    body: () => ({ name: 'Matrix robot', executor: 'node main.js' }),
    foreign: NO_ROW,
  },
  'PUT /api/rota/robot/api/v1/update': {
    guard: 'ROBOS.UPDATE',
    body: (r) => ({ id: r.robot, description: 'changed' }),
    foreign: 404,
  },
  'POST /api/rota/robot/api/v1/delete': {
    guard: 'ROBOS.DELETE',
    body: (r) => ({ id: r.robot }),
    foreign: 404,
  },
  'POST /api/rota/robot/api/v1/run': {
    guard: 'ROBOS.UPDATE',
    body: (r) => ({ id: r.robot }),
    foreign: 404,
  },
  'GET /api/rota/attended/api/v1/robots': { guard: 'ROBOS.UPDATE', foreign: OWN_ONLY },
  'POST /api/rota/attended/api/v1/run': {
    guard: 'ROBOS.UPDATE',
    body: (r) => ({ id: r.robot }),
    foreign: 404,
  },
  // Maintenance: a VM's window needs AGENTES.UPDATE there; the cluster's, a platform
  // administrator (maintenance.test.ts), so the table probes the VM's.
  'POST /api/rota/maintenance/api/v1/start': {
    guard: 'AGENTES.UPDATE',
    body: (r) => ({ scope: 'vm', rota_vms_id: r.vm, mode: 'drain', message: 'Matrix' }),
    foreign: 404,
  },
  'POST /api/rota/maintenance/api/v1/end': {
    guard: 'AGENTES.UPDATE',
    body: (r) => ({ scope: 'vm', rota_vms_id: r.vm }),
    foreign: 404,
  },
  'POST /api/rota/maintenance/api/v1/show': {
    guard: 'session',
    body: () => ({}),
    foreign: "the cluster's windows and the caller's own VMs' only",
  },
  'POST /api/rota/robot/version/api/v1/index': {
    guard: 'ROBOS.LIST',
    body: (r) => ({ rota_robots_id: r.robot }),
    foreign: LISTS_NOTHING,
  },
  'POST /api/rota/robot/version/api/v1/show': {
    guard: 'ROBOS.LIST',
    body: (r) => ({ id: r.version }),
    foreign: 404,
  },
  'PUT /api/rota/robot/version/api/v1/update': {
    guard: 'ROBOS.UPDATE',
    body: (r) => ({ id: r.version, notes: 'changed' }),
    foreign: 404,
  },
  'POST /api/rota/robot/version/api/v1/delete': {
    guard: 'ROBOS.DELETE',
    body: (r) => ({ id: r.version }),
    foreign: 404,
  },
  'POST /api/rota/robot/version/api/v1/create': {
    guard: 'ROBOS.CREATE',
    foreign: 'multipart upload; another client’s robot is covered by the robot-versions tests',
  },
  'POST /api/rota/robot/version/api/v1/download': {
    guard: 'ROBOS.LIST',
    body: (r) => ({ id: r.version }),
    foreign: 404,
  },
  'POST /api/rota/package/api/v1/index': {
    guard: 'ROBOS.LIST',
    body: () => ({}),
    foreign: NO_ROW,
  },
  'POST /api/rota/package/api/v1/show': {
    guard: 'ROBOS.LIST',
    body: (r) => ({ id: r.package }),
    foreign: 404,
  },
  'POST /api/rota/package/api/v1/create': {
    guard: 'ROBOS.CREATE',
    body: () => ({ name: `Matrix package ${Math.random()}` }),
    foreign: NO_ROW,
  },
  'PUT /api/rota/package/api/v1/update': {
    guard: 'ROBOS.UPDATE',
    body: (r) => ({ id: r.package, name: `Renamed package ${Math.random()}` }),
    foreign: 404,
  },
  'POST /api/rota/package/api/v1/delete': {
    guard: 'ROBOS.DELETE',
    body: (r) => ({ id: r.package }),
    foreign: 404,
  },
  'POST /api/rota/package/api/v1/version/index': {
    guard: 'ROBOS.LIST',
    body: (r) => ({ rota_packages_id: r.package }),
    foreign: 404,
  },
  'POST /api/rota/package/api/v1/version/create': {
    guard: 'ROBOS.CREATE',
    foreign: 'multipart upload; another client’s package is covered by the packages tests',
  },
  'PUT /api/rota/package/api/v1/robot': {
    guard: 'ROBOS.UPDATE',
    body: (r) => ({ id: r.robot, rota_packages_id: r.package, rota_robot_versions_id: r.version }),
    foreign: 404,
  },
  'POST /api/rota/package/api/v1/update-robots': {
    guard: 'ROBOS.UPDATE',
    body: (r) => ({ rota_packages_id: r.package, ids: [r.robot] }),
    foreign: 404,
  },
  'POST /api/rota/package/key/api/v1/index': {
    guard: 'USUARIOS.LIST',
    body: () => ({}),
    foreign: NO_ROW,
  },
  'POST /api/rota/package/key/api/v1/show': {
    guard: 'USUARIOS.LIST',
    body: (r) => ({ id: r.packageKey }),
    foreign: 404,
  },
  'POST /api/rota/package/key/api/v1/create': {
    guard: 'USUARIOS.CREATE',
    body: () => ({ name: 'Matrix key', public_key: 'not a key' }),
    foreign: NO_ROW,
  },
  'PUT /api/rota/package/key/api/v1/update': {
    guard: 'USUARIOS.UPDATE',
    body: (r) => ({ id: r.packageKey, name: 'Renamed key' }),
    foreign: 404,
  },
  'POST /api/rota/package/key/api/v1/delete': {
    guard: 'USUARIOS.DELETE',
    body: (r) => ({ id: r.packageKey }),
    foreign: 404,
  },
  'POST /api/rota/robot/field/api/v1/index': {
    guard: 'ROBOS.LIST',
    body: () => ({}),
    foreign: NO_ROW,
  },
  'POST /api/rota/robot/field/api/v1/show': {
    guard: 'ROBOS.LIST',
    body: (r) => ({ id: r.field }),
    foreign: 404,
  },
  'POST /api/rota/robot/field/api/v1/create': {
    guard: 'ROBOS.CREATE',
    body: (r) => ({ rota_robots_id: r.robot, name: 'matrix_field', label: 'Matrix' }),
    foreign: 404,
  },
  'PUT /api/rota/robot/field/api/v1/update': {
    guard: 'ROBOS.UPDATE',
    body: (r) => ({ id: r.field, label: 'Changed' }),
    foreign: 404,
  },
  'POST /api/rota/robot/field/api/v1/delete': {
    guard: 'ROBOS.DELETE',
    body: (r) => ({ id: r.field }),
    foreign: 404,
  },

  // Tasks
  'POST /api/rota/task/api/v1/index': {
    guard: 'ATIVIDADES.LIST',
    body: () => ({}),
    foreign: NO_ROW,
  },
  'POST /api/rota/task/api/v1/show': {
    guard: 'ATIVIDADES.LIST',
    body: (r) => ({ id: r.task }),
    foreign: 404,
  },
  'POST /api/rota/task/api/v1/history': {
    guard: 'ATIVIDADES.LIST',
    body: (r) => ({ id: r.task }),
    foreign: 404,
  },
  'POST /api/rota/task/api/v1/create': {
    guard: 'ATIVIDADES.CREATE',
    body: (r) => ({ rota_robots_id: r.robot, expiration_date: '2099-01-01' }),
    foreign: 404,
  },
  'PUT /api/rota/task/api/v1/update': {
    guard: 'ATIVIDADES.UPDATE',
    body: (r) => ({ id: r.task, label: 'changed' }),
    foreign: 404,
  },
  'POST /api/rota/task/api/v1/delete': {
    guard: 'ATIVIDADES.DELETE',
    body: (r) => ({ id: r.task }),
    foreign: 404,
  },
  'POST /api/rota/task/api/v1/retry': {
    guard: 'ATIVIDADES.UPDATE',
    body: (r) => ({ ids: [r.task] }),
    foreign: 'bulk: rows of another client are skipped, `count` says 0 (tasks tests)',
  },
  'POST /api/rota/task/api/v1/delete_many': {
    guard: 'ATIVIDADES.DELETE',
    body: (r) => ({ ids: [r.task] }),
    foreign: 'bulk: rows of another client are skipped, `count` says 0 (tasks tests)',
  },

  // VMs and agents
  'POST /api/rota/vm/api/v1/index': { guard: 'AGENTES.LIST', body: () => ({}), foreign: NO_ROW },
  'POST /api/rota/vm/api/v1/show': {
    guard: 'AGENTES.LIST',
    body: (r) => ({ id: r.vm }),
    foreign: 404,
  },
  'POST /api/rota/vm/api/v1/create': {
    guard: 'AGENTES.CREATE',
    body: () => ({ name: 'Matrix VM', hostname: 'matrix-vm' }),
    foreign: NO_ROW,
  },
  'PUT /api/rota/vm/api/v1/update': {
    guard: 'AGENTES.UPDATE',
    body: (r) => ({ id: r.vm, label: 'changed' }),
    foreign: 404,
  },
  'POST /api/rota/vm/api/v1/delete': {
    guard: 'AGENTES.DELETE',
    body: (r) => ({ id: r.vm }),
    foreign: 404,
  },
  'POST /api/rota/vm/api/v1/count': { guard: 'AGENTES.LIST', foreign: NO_ROW },
  'POST /api/rota/node/api/v1/index': { guard: 'AGENTES.LIST', body: () => ({}), foreign: NO_ROW },
  'POST /api/rota/node/api/v1/show': {
    guard: 'AGENTES.LIST',
    body: (r) => ({ id: r.agent }),
    foreign: 404,
  },
  'POST /api/rota/node/api/v1/create': {
    guard: 'AGENTES.CREATE',
    body: (r) => ({ name: 'Matrix agent', rota_vms_id: r.vm }),
    foreign: 400,
  },
  'PUT /api/rota/node/api/v1/update': {
    guard: 'AGENTES.UPDATE',
    body: (r) => ({ id: r.agent, name: 'Changed agent' }),
    foreign: 404,
  },
  'POST /api/rota/node/api/v1/delete': {
    guard: 'AGENTES.DELETE',
    body: (r) => ({ id: r.agent }),
    foreign: 404,
  },
  'POST /api/rota/node/api/v1/rotate_token': {
    guard: 'AGENTES.UPDATE',
    body: (r) => ({ id: r.agent }),
    foreign: 404,
  },
  'POST /api/rota/node/api/v1/update': {
    guard: 'AGENTES.UPDATE',
    body: (r) => ({ ids: [r.agent] }),
    foreign: 404,
  },
  'POST /api/rota/node/api/v1/auto_update': {
    guard: 'AGENTES.UPDATE',
    body: () => ({ enabled: false }),
    foreign: 'the selected client’s own setting',
  },
  'POST /api/rota/node/api/v1/auto_update/show': {
    guard: 'AGENTES.LIST',
    body: () => ({}),
    foreign: 'the selected client’s own setting',
  },
  // The packaged agent: the same files for every client
  'GET /api/rota/agent/download/api/v1/index': { guard: 'AGENTES.LIST', foreign: PLATFORM },
  'GET /api/rota/agent/download/api/v1/{platform}': { guard: 'AGENTES.LIST', foreign: PLATFORM },

  // Schedulings
  'POST /api/rota/scheduling/api/v1/index': {
    guard: 'AGENDAMENTOS.LIST',
    body: () => ({}),
    foreign: NO_ROW,
  },
  'POST /api/rota/scheduling/api/v1/show': {
    guard: 'AGENDAMENTOS.LIST',
    body: (r) => ({ id: r.scheduling }),
    foreign: 404,
  },
  'POST /api/rota/scheduling/api/v1/create': {
    guard: 'AGENDAMENTOS.CREATE',
    body: (r) => ({
      name: 'Matrix scheduling',
      rota_robots_id: r.robot,
      interval_minutes: 60,
      timeout_minutes: 10,
    }),
    foreign: 400,
  },
  'PUT /api/rota/scheduling/api/v1/update': {
    guard: 'AGENDAMENTOS.UPDATE',
    body: (r) => ({ id: r.scheduling, priority: 60 }),
    foreign: 404,
  },
  'POST /api/rota/scheduling/api/v1/delete': {
    guard: 'AGENDAMENTOS.DELETE',
    body: (r) => ({ id: r.scheduling }),
    foreign: 404,
  },
  'POST /api/rota/scheduling/api/v1/preview': {
    guard: 'AGENDAMENTOS.LIST',
    body: (r) => ({ trigger_type: 'cron', cron: '0 7 * * 1-5', rota_calendars_id: r.calendar }),
    foreign: 400,
  },
  'POST /api/rota/scheduling/api/v1/restore': {
    guard: 'AGENDAMENTOS.DELETE',
    body: (r) => ({ id: r.scheduling }),
    foreign: 404,
  },
  'POST /api/rota/scheduling/api/v1/run': {
    guard: 'AGENDAMENTOS.UPDATE',
    body: (r) => ({ id: r.scheduling }),
    foreign: 404,
  },
  'POST /api/rota/scheduling/vms/api/v1/index': {
    guard: 'AGENDAMENTOS.LIST',
    body: (r) => ({ rota_schedulings_id: r.scheduling }),
    foreign: 404,
  },
  'POST /api/rota/scheduling/vms/api/v1/create': {
    guard: 'AGENDAMENTOS.UPDATE',
    body: (r) => ({ rota_schedulings_id: r.scheduling, rota_vms_id: r.vm }),
    foreign: 404,
  },
  'POST /api/rota/scheduling/vms/api/v1/delete': {
    guard: 'AGENDAMENTOS.UPDATE',
    body: (r) => ({ id: r.schedulingVm }),
    foreign: 404,
  },

  // Alert rules, their delivery log and the bell
  'POST /api/rota/alert/api/v1/index': {
    guard: 'USUARIOS.LIST',
    body: () => ({}),
    foreign: NO_ROW,
  },
  'POST /api/rota/alert/api/v1/show': {
    guard: 'USUARIOS.LIST',
    body: (r) => ({ id: r.alert }),
    foreign: 404,
  },
  'POST /api/rota/alert/api/v1/create': {
    guard: 'USUARIOS.CREATE',
    body: (r) => ({
      name: `Matrix alert ${Math.random().toString(36).slice(2, 8)}`,
      events: ['execution.application_error'],
      rota_robots_ids: [r.robot],
      channel: { type: 'email', to: ['matrix@example.com'] },
    }),
    foreign: 400,
  },
  'PUT /api/rota/alert/api/v1/update': {
    guard: 'USUARIOS.UPDATE',
    body: (r) => ({ id: r.alert, active: false }),
    foreign: 404,
  },
  'POST /api/rota/alert/api/v1/delete': {
    guard: 'USUARIOS.DELETE',
    body: (r) => ({ id: r.alert }),
    foreign: 404,
  },
  'POST /api/rota/alert/api/v1/test': {
    guard: 'USUARIOS.UPDATE',
    body: (r) => ({ id: r.alert }),
    foreign: 404,
  },
  // Log streams: a client's syslog destinations
  'POST /api/rota/log-stream/api/v1/index': {
    guard: 'USUARIOS.LIST',
    body: () => ({}),
    foreign: NO_ROW,
  },
  'POST /api/rota/log-stream/api/v1/show': {
    guard: 'USUARIOS.LIST',
    body: (r) => ({ id: r.logStream }),
    foreign: 404,
  },
  'POST /api/rota/log-stream/api/v1/create': {
    guard: 'USUARIOS.CREATE',
    body: () => ({
      name: `Matrix stream ${Math.random().toString(36).slice(2, 8)}`,
      transport: 'tcp',
      host: 'siem.example.com',
      port: 6514,
      events: ['audit'],
    }),
    foreign: NO_ROW,
  },
  'PUT /api/rota/log-stream/api/v1/update': {
    guard: 'USUARIOS.UPDATE',
    body: (r) => ({ id: r.logStream, active: false }),
    foreign: 404,
  },
  'POST /api/rota/log-stream/api/v1/delete': {
    guard: 'USUARIOS.DELETE',
    body: (r) => ({ id: r.logStream }),
    foreign: 404,
  },
  'POST /api/rota/log-stream/api/v1/test': {
    guard: 'USUARIOS.UPDATE',
    body: (r) => ({ id: r.logStream }),
    foreign: 404,
  },
  'POST /api/rota/alert/delivery/api/v1/index': {
    guard: 'USUARIOS.LIST',
    body: (r) => ({ rota_alerts_id: r.alert }),
    foreign: 404,
  },
  'POST /api/rota/alert/feed/api/v1/index': {
    guard: 'session',
    body: () => ({}),
    foreign: 'the bell of the selected client only (alerts tests)',
  },
  'POST /api/rota/alert/feed/api/v1/seen': {
    guard: 'session',
    body: () => ({ up_to: 1 }),
    foreign: OWN_ONLY,
  },

  // Business calendars
  'POST /api/rota/calendar/api/v1/index': {
    guard: 'AGENDAMENTOS.LIST',
    body: () => ({}),
    foreign: NO_ROW,
  },
  'POST /api/rota/calendar/api/v1/show': {
    guard: 'AGENDAMENTOS.LIST',
    body: (r) => ({ id: r.calendar }),
    foreign: 404,
  },
  'POST /api/rota/calendar/api/v1/create': {
    guard: 'AGENDAMENTOS.CREATE',
    body: () => ({ name: 'Matrix calendar', excluded_dates: ['2099-12-25'] }),
    foreign: NO_ROW,
  },
  'PUT /api/rota/calendar/api/v1/update': {
    guard: 'AGENDAMENTOS.UPDATE',
    body: (r) => ({ id: r.calendar, excluded_dates: ['2099-12-24'] }),
    foreign: 404,
  },
  'POST /api/rota/calendar/api/v1/delete': {
    guard: 'AGENDAMENTOS.DELETE',
    body: (r) => ({ id: r.calendar }),
    foreign: 404,
  },

  // Parameters
  'POST /api/rota/parameter/api/v1/index': {
    guard: 'PARAMETROS.LIST',
    body: () => ({}),
    foreign: NO_ROW,
  },
  'POST /api/rota/parameter/api/v1/show': {
    guard: 'PARAMETROS.LIST',
    body: (r) => ({ id: r.parameter }),
    foreign: 404,
  },
  'POST /api/rota/parameter/api/v1/create': {
    guard: 'PARAMETROS.CREATE',
    body: () => ({ name: 'MATRIX', value: 'x' }),
    foreign: NO_ROW,
  },
  'PUT /api/rota/parameter/api/v1/update': {
    guard: 'PARAMETROS.UPDATE',
    body: (r) => ({ id: r.parameter, description: 'changed' }),
    foreign: 404,
  },
  'POST /api/rota/parameter/api/v1/delete': {
    guard: 'PARAMETROS.DELETE',
    body: (r) => ({ id: r.parameter }),
    foreign: 404,
  },

  // Activity, dashboard, events
  'POST /api/rota/activity/api/v1/index': {
    guard: 'HISTORIC.LIST',
    body: () => range,
    foreign: NO_ROW,
  },
  'POST /api/rota/activity/api/v1/show': {
    guard: 'HISTORIC.LIST',
    body: (r) => ({ id: r.execution }),
    foreign: 404,
  },
  'POST /api/rota/activity/api/v1/logs': {
    guard: 'HISTORIC.LIST',
    body: (r) => ({ id: r.execution }),
    foreign: 404,
  },
  // An execution's whole log, its artifacts (GET: `body` is the query string).
  'GET /api/rota/activity/api/v1/logs/download': {
    guard: 'HISTORIC.LIST',
    body: (r) => ({ id: r.execution }),
    foreign: 404,
  },
  'POST /api/rota/activity/api/v1/artifact/index': {
    guard: 'HISTORIC.LIST',
    body: (r) => ({ id: r.execution }),
    foreign: 404,
  },
  'GET /api/rota/activity/api/v1/artifact/download': {
    guard: 'HISTORIC.LIST',
    body: () => ({ id: 1 }),
    foreign: 'another client’s artifact is covered by the artifacts tests',
  },
  'POST /api/rota/activity/api/v1/cancel': {
    guard: 'HISTORIC.UPDATE',
    body: (r) => ({ id: r.execution }),
    foreign: 404,
  },
  'POST /api/rota/activity/api/v1/stop': {
    guard: 'HISTORIC.UPDATE',
    body: (r) => ({ id: r.execution }),
    foreign: 404,
  },
  'POST /api/rota/activity/api/v1/fail': {
    guard: 'HISTORIC.UPDATE',
    body: (r) => ({ id: r.execution }),
    foreign: 404,
  },
  'POST /api/rota/activity/api/v1/export': {
    guard: 'HISTORIC.LIST',
    body: () => range,
    foreign: NO_ROW,
  },
  'POST /api/rota/dashboard/api/v1/index': { guard: 'session', body: () => range, foreign: NO_ROW },
  'GET /api/rota/events/api/v1/stream': {
    guard: 'session',
    foreign: 'a stream of the selected client only (live-events tests)',
  },

  // Run triggers: ROBOS.UPDATE makes and changes them, fire takes the trigger's token
  'POST /api/rota/trigger/api/v1/index': {
    guard: 'ROBOS.LIST',
    body: (r) => ({ rota_robots_id: r.robot }),
    foreign: LISTS_NOTHING,
  },
  'POST /api/rota/trigger/api/v1/show': {
    guard: 'ROBOS.LIST',
    body: (r) => ({ id: r.trigger }),
    foreign: 404,
  },
  'POST /api/rota/trigger/api/v1/create': {
    guard: 'ROBOS.UPDATE',
    body: (r) => ({ rota_robots_id: r.robot, name: 'Matrix trigger 2' }),
    foreign: 400,
  },
  'PUT /api/rota/trigger/api/v1/update': {
    guard: 'ROBOS.UPDATE',
    body: (r) => ({ id: r.trigger, name: 'Matrix trigger renamed' }),
    foreign: 404,
  },
  'POST /api/rota/trigger/api/v1/delete': {
    guard: 'ROBOS.DELETE',
    body: (r) => ({ id: r.trigger }),
    foreign: 404,
  },
  'POST /api/rota/trigger/api/v1/rotate': {
    guard: 'ROBOS.UPDATE',
    body: (r) => ({ id: r.trigger }),
    foreign: 404,
  },
  'POST /api/rota/trigger/api/v1/revoke': {
    guard: 'ROBOS.UPDATE',
    body: (r) => ({ id: r.trigger }),
    foreign: 404,
  },
  'POST /api/rota/trigger/api/v1/fire': {
    guard: 'trigger',
    foreign: 'the trigger’s own robot and client (triggers tests)',
  },
  // Personal API keys: a session's own keys; `all` and others' keys need USUARIOS.*
  'POST /api/user/apikey/api/v1/index': {
    sessionOnly: true,
    guard: 'session',
    foreign: 'the selected client’s keys only (api-keys tests)',
  },
  'POST /api/user/apikey/api/v1/create': {
    sessionOnly: true,
    guard: 'session',
    body: () => ({ name: 'Matrix key' }),
    foreign: OWN_ONLY,
  },
  'POST /api/user/apikey/api/v1/revoke': {
    sessionOnly: true,
    guard: 'session',
    body: () => ({ id: 1 }),
    foreign: 'one’s own keys, or the client’s with USUARIOS.UPDATE (api-keys tests)',
  },

  // Agent protocol and robot API: their own tokens, never a user's session
  'POST /api/rota/agent/api/v1/hello': { guard: 'agent', foreign: 'the agent’s own client' },
  'POST /api/rota/agent/api/v1/heartbeat': { guard: 'agent', foreign: 'the agent’s own client' },
  'POST /api/rota/agent/api/v1/claim': { guard: 'agent', foreign: 'the agent’s own client' },
  'POST /api/rota/agent/api/v1/run': { guard: 'agent', foreign: 'the agent’s own client' },
  'POST /api/rota/agent/api/v1/claim-batch': { guard: 'agent', foreign: 'the agent’s own client' },
  'POST /api/rota/agent/api/v1/logs': { guard: 'agent', foreign: 'the agent’s own runs' },
  'POST /api/rota/agent/api/v1/finish': { guard: 'agent', foreign: 'the agent’s own runs' },
  'POST /api/rota/agent/api/v1/goodbye': { guard: 'agent', foreign: 'the agent’s own runs' },
  'GET /api/rota/agent/api/v1/update/{platform}': { guard: 'agent', foreign: PLATFORM },
  'GET /api/rota/agent/api/v1/package/{sha256}': {
    guard: 'agent',
    foreign: 'packages of the agent’s client only (engine tests)',
  },
  'POST /api/rota/run/api/v1/status': { guard: 'run', foreign: 'the run’s own execution' },
  'POST /api/rota/run/api/v1/progress': { guard: 'run', foreign: 'the run’s own execution' },
  'POST /api/rota/run/api/v1/task/next': { guard: 'run', foreign: 'the run’s own robot' },
  'POST /api/rota/run/api/v1/task/finish': { guard: 'run', foreign: 'the run’s own tasks' },
  'POST /api/rota/run/api/v1/parameter/index': { guard: 'run', foreign: 'the run’s own client' },
  'POST /api/rota/run/api/v1/environment/index': { guard: 'run', foreign: 'the run’s own client' },
  'POST /api/rota/run/api/v1/artifact/upload': {
    guard: 'run',
    foreign: 'multipart upload to the run’s own execution',
  },

  // Users, profiles, memberships, clients, access requests
  'POST /api/user/api/v1/index': { guard: 'USUARIOS.LIST', body: () => ({}), foreign: NO_ROW },
  'POST /api/user/api/v1/show': {
    guard: 'USUARIOS.LIST',
    body: (r) => ({ id: r.user }),
    foreign: 404,
  },
  'POST /api/user/api/v1/name': { guard: 'USUARIOS.LIST', body: () => ({}), foreign: NO_ROW },
  'POST /api/user/api/v1/create': {
    guard: 'USUARIOS.CREATE',
    body: (r) => ({
      name: 'Matriz',
      last_name: 'Teste',
      email: 'matriz.teste@example.com',
      access: 'matriz.teste',
      group: 'G',
      sector: 'S',
      work: 'W',
      role: 'R',
      password: 'matrix-password',
      clients: [{ rota_clients_id: r.client, profiles_id: r.profile }],
    }),
    foreign: 400,
  },
  'PUT /api/user/api/v1/update': {
    guard: 'USUARIOS.UPDATE',
    body: (r) => ({ id: r.user, role: 'Changed' }),
    foreign: 404,
  },
  'POST /api/user/api/v1/delete': {
    guard: 'USUARIOS.DELETE',
    body: (r) => ({ id: r.user }),
    foreign: 404,
  },
  'POST /api/user/api/v1/avatar': {
    guard: 'session',
    foreign: 'multipart; another client’s user is covered by the users tests',
  },
  'GET /api/user/api/v1/avatar/{file}': { guard: 'public', foreign: 'unguessable content name' },
  'POST /api/user/profile/api/v1/create': {
    guard: 'USUARIOS.CREATE',
    body: () => ({ name: 'Matrix profile', permissions: ['ROBOS.LIST'] }),
    foreign: NO_ROW,
  },
  'PUT /api/user/profile/api/v1/update': {
    guard: 'USUARIOS.UPDATE',
    body: (r) => ({ id: r.profile, name: 'Changed profile' }),
    foreign: 404,
  },
  'POST /api/user/profile/api/v1/delete': {
    guard: 'USUARIOS.DELETE',
    body: (r) => ({ id: r.profile }),
    foreign: 404,
  },
  'POST /api/user/client/api/v1/index': {
    guard: 'USUARIOS.LIST',
    body: () => ({}),
    foreign: NO_ROW,
  },
  'POST /api/user/client/api/v1/show': {
    guard: 'USUARIOS.LIST',
    body: (r) => ({ id: r.userClient }),
    foreign: 404,
  },
  'POST /api/user/client/api/v1/create': {
    guard: 'USUARIOS.CREATE',
    body: (r) => ({ users_id: r.user, profiles_id: r.profile }),
    // Another client's user answers like an id nobody has.
    foreign: 404,
  },
  'PUT /api/user/client/api/v1/update': {
    guard: 'USUARIOS.UPDATE',
    body: (r) => ({ id: r.userClient, profiles_id: r.profile }),
    foreign: 404,
  },
  'POST /api/user/client/api/v1/delete': {
    guard: 'USUARIOS.DELETE',
    body: (r) => ({ id: r.userClient }),
    foreign: 404,
  },
  'POST /api/user/access-request/api/v1/index': {
    guard: 'platform_admin',
    body: () => ({}),
    foreign: PLATFORM,
  },
  'POST /api/user/access-request/api/v1/show': {
    guard: 'platform_admin',
    body: (r) => ({ id: r.accessRequest }),
    foreign: PLATFORM,
  },
  'PUT /api/user/access-request/api/v1/update': {
    guard: 'platform_admin',
    body: (r) => ({ id: r.accessRequest, status: 'dismissed' }),
    foreign: PLATFORM,
  },
  'POST /api/rota/backup/api/v1/create': {
    guard: 'platform_admin',
    body: () => ({}),
    foreign: PLATFORM,
  },
  'POST /api/rota/client/api/v1/index': {
    guard: 'platform_admin',
    body: () => ({}),
    foreign: PLATFORM,
  },
  'POST /api/rota/client/api/v1/show': {
    guard: 'platform_admin',
    body: (r) => ({ id: r.client }),
    foreign: PLATFORM,
  },
  'POST /api/rota/client/api/v1/profiles': {
    guard: 'platform_admin',
    body: (r) => ({ id: r.client }),
    foreign: PLATFORM,
  },
  'POST /api/rota/client/api/v1/create': {
    guard: 'platform_admin',
    body: () => ({ name: 'Matrix client' }),
    foreign: PLATFORM,
  },
  'PUT /api/rota/client/api/v1/update': {
    guard: 'platform_admin',
    body: (r) => ({ id: r.client, name: 'Renamed client' }),
    foreign: PLATFORM,
  },

  // Environments and status items
  'POST /api/rota/env/api/v1/index': { guard: 'USUARIOS.LIST', body: () => ({}), foreign: NO_ROW },
  'POST /api/rota/env/api/v1/show': {
    guard: 'USUARIOS.LIST',
    body: (r) => ({ id: r.environment }),
    foreign: 404,
  },
  'POST /api/rota/env/api/v1/create': {
    guard: 'USUARIOS.CREATE',
    body: () => ({ title: 'Matrix environment' }),
    foreign: NO_ROW,
  },
  'PUT /api/rota/env/api/v1/update': {
    guard: 'USUARIOS.UPDATE',
    body: (r) => ({ id: r.environment, db_name: 'changed' }),
    foreign: 404,
  },
  'POST /api/rota/env/api/v1/delete': {
    guard: 'USUARIOS.DELETE',
    body: (r) => ({ id: r.environment }),
    foreign: 404,
  },
  'POST /api/rota/env/api/v1/test': {
    guard: 'USUARIOS.UPDATE',
    body: (r) => ({ id: r.environment }),
    foreign: 404,
  },
  'POST /api/rota/status/item/api/v1/index': {
    guard: 'USUARIOS.LIST',
    body: () => ({}),
    foreign: NO_ROW,
  },
  'POST /api/rota/status/item/api/v1/show': {
    guard: 'USUARIOS.LIST',
    body: (r) => ({ id: r.statusItem }),
    foreign: 404,
  },
  'PUT /api/rota/status/item/api/v1/update': {
    guard: 'USUARIOS.UPDATE',
    body: (r) => ({ id: r.statusItem, color: '#123456' }),
    foreign: 404,
  },
  'POST /api/rota/status/item/api/v1/palette': { guard: 'session', foreign: NO_ROW },

  // Teams
  'POST /api/teams/api/v1/index': { guard: 'USUARIOS.LIST', body: () => ({}), foreign: NO_ROW },
  'POST /api/teams/api/v1/show': {
    guard: 'USUARIOS.LIST',
    body: (r) => ({ id: r.team }),
    foreign: 404,
  },
  'POST /api/teams/api/v1/create': {
    guard: 'USUARIOS.CREATE',
    body: () => ({ name: 'Matrix team' }),
    foreign: NO_ROW,
  },
  'PUT /api/teams/api/v1/update': {
    guard: 'USUARIOS.UPDATE',
    body: (r) => ({ id: r.team, description: 'changed' }),
    foreign: 404,
  },
  'POST /api/teams/api/v1/delete': {
    guard: 'USUARIOS.DELETE',
    body: (r) => ({ id: r.team }),
    foreign: 404,
  },
  'POST /api/teams/robots/api/v1/index': {
    guard: 'USUARIOS.LIST',
    body: (r) => ({ teams_id: r.team }),
    foreign: 404,
  },
  'POST /api/teams/robots/api/v1/show': {
    guard: 'USUARIOS.LIST',
    body: (r) => ({ id: r.teamRobot }),
    foreign: 404,
  },
  'POST /api/teams/robots/api/v1/create': {
    guard: 'USUARIOS.CREATE',
    body: (r) => ({ teams_id: r.team, rota_robots_id: r.robot }),
    foreign: 404,
  },
  'POST /api/teams/robots/api/v1/delete': {
    guard: 'USUARIOS.DELETE',
    body: (r) => ({ id: r.teamRobot }),
    foreign: 404,
  },
  'POST /api/teams/users/api/v1/index': {
    guard: 'USUARIOS.LIST',
    body: (r) => ({ teams_id: r.team }),
    foreign: 404,
  },
  'POST /api/teams/users/api/v1/show': {
    guard: 'USUARIOS.LIST',
    body: (r) => ({ id: r.teamUser }),
    foreign: 404,
  },
  'POST /api/teams/users/api/v1/create': {
    guard: 'USUARIOS.CREATE',
    body: (r) => ({ teams_id: r.team, users_id: r.user }),
    foreign: 404,
  },
  'POST /api/teams/users/api/v1/delete': {
    guard: 'USUARIOS.DELETE',
    body: (r) => ({ id: r.teamUser }),
    foreign: 404,
  },

  // Audit
  'POST /api/rota/audit/api/v1/index': {
    guard: 'USUARIOS.LIST',
    body: () => ({}),
    foreign: NO_ROW,
  },
};
