/**
 * Rota's tables. Each belongs to one module: only that module's repositories import it from
 * here or name it in SQL; every other module calls the owner's service (which may also hand out
 * read-only views and statement fragments its repository builds, for joins and one-statement
 * hot paths). The lint rule `rota/table-owner` (eslint/rota-rules.js) reads this list.
 *
 * @owners
 *   clients: rotaClients
 *   users: users, accessRequests
 *   profiles: profiles
 *   user-clients: userClients
 *   auth: sessions, passwordResetCodes, signInThrottles, recoveryOutbox
 *   mfa: userMfa, userMfaRecoveryCodes, mfaChallenges
 *   oidc: oidcMappings
 *   robots: rotaRobots
 *   robot-versions: rotaRobotVersions
 *   robot-fields: rotaRobotFields
 *   tasks: rotaTasks, rotaTaskHistory
 *   vms: rotaVms
 *   agents: rotaNodes
 *   schedulings: rotaSchedulings, rotaSchedulingVms
 *   calendars: rotaCalendars
 *   parameters: rotaParameters
 *   engine: rotaExecutions, rotaExecutionAttempts, rotaExecutionLogs, engineState
 *   artifacts: rotaArtifacts
 *   teams: teams, teamRobots, teamUsers
 *   environments: rotaEnvironments
 *   status-items: rotaStatusItems
 *   audit: auditLogs
 *   blobs: blobs, blobChunks
 *   alerts: rotaAlerts, rotaAlertEvents, rotaAlertDeliveries, alertReads
 *   triggers: rotaTriggers, rotaTriggerFires
 *   api-keys: userApiKeys
 *   lib/rate-limiter.ts: rateLimits
 *   lib/row-counts.ts: rowCounts
 * @end
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** A client is a tenant: every tenant-owned row carries its `rota_clients_id`. */
export const rotaClients = pgTable(
  'rota_clients',
  {
    rota_clients_id: integer('rota_clients_id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    /** Executions (with their logs and artifacts) older than this many days are pruned. */
    retention_days: integer('retention_days').notNull().default(90),
    /** Audit records older than this many days are pruned. */
    audit_retention_days: integer('audit_retention_days').notNull().default(365),
    /** Members must sign in with a second factor; un-enrolled members enrol first. */
    require_mfa: boolean('require_mfa').notNull().default(false),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [uniqueIndex('rota_clients_name_key').on(sql`lower(${t.name})`)],
);

export const users = pgTable(
  'users',
  {
    users_id: integer('users_id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    last_name: text('last_name').notNull().default(''),
    /** Stored lower-case; unique. */
    email: text('email').notNull(),
    /** The access identifier typed at sign-in; stored lower-case; unique. */
    access: text('access').notNull(),
    password_hash: text('password_hash').notNull(),
    group: text('group'),
    sector: text('sector'),
    work: text('work'),
    role: text('role'),
    avatar: text('avatar'),
    password_change_required: boolean('password_change_required').notNull().default(false),
    /** Platform administrators manage clients; the seeded admin is one. */
    /** The console's language and colour scheme, kept so they follow the user. */
    language: text('language'),
    color_scheme: text('color_scheme'),
    is_platform_admin: boolean('is_platform_admin').notNull().default(false),
    /** The OpenID Connect subject (`sub`) this account is linked to; unique. */
    oidc_subject: text('oidc_subject'),
    rota_clients_id_selected: integer('rota_clients_id_selected').references(
      () => rotaClients.rota_clients_id,
      { onDelete: 'set null' },
    ),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_access_key').on(t.access),
    uniqueIndex('users_oidc_subject_key').on(t.oidc_subject),
  ],
);

/** A named permission set inside one client. */
export const profiles = pgTable(
  'profiles',
  {
    profiles_id: integer('profiles_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: integer('rota_clients_id')
      .notNull()
      .references(() => rotaClients.rota_clients_id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    permissions: text('permissions')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [uniqueIndex('profiles_client_name_key').on(t.rota_clients_id, sql`lower(${t.name})`)],
);

/** Membership: a user works for a client with one profile there. */
export const userClients = pgTable(
  'user_clients',
  {
    user_clients_id: integer('user_clients_id').primaryKey().generatedAlwaysAsIdentity(),
    users_id: integer('users_id')
      .notNull()
      .references(() => users.users_id, { onDelete: 'cascade' }),
    rota_clients_id: integer('rota_clients_id')
      .notNull()
      .references(() => rotaClients.rota_clients_id, { onDelete: 'cascade' }),
    profiles_id: integer('profiles_id')
      .notNull()
      .references(() => profiles.profiles_id, { onDelete: 'restrict' }),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('user_clients_user_client_key').on(t.users_id, t.rota_clients_id),
    index('user_clients_client_idx').on(t.rota_clients_id),
    index('user_clients_profile_idx').on(t.profiles_id),
  ],
);

/** Sign-in sessions; only the SHA-256 of the bearer token is kept. */
export const sessions = pgTable(
  'sessions',
  {
    sessions_id: integer('sessions_id').primaryKey().generatedAlwaysAsIdentity(),
    users_id: integer('users_id')
      .notNull()
      .references(() => users.users_id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip'),
    user_agent: text('user_agent'),
    /** Stamped at most once a minute by the requests the session makes. */
    last_used_at: timestamp('last_used_at', { withTimezone: true }),
    /** How the session was opened: password, password+totp, recovery code or oidc. */
    method: text('method').notNull().default('password'),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_key').on(t.token_hash),
    index('sessions_user_idx').on(t.users_id),
  ],
);

/** Single-use password recovery codes; only their SHA-256 is kept. */
export const passwordResetCodes = pgTable(
  'password_reset_codes',
  {
    password_reset_codes_id: integer('password_reset_codes_id')
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    users_id: integer('users_id')
      .notNull()
      .references(() => users.users_id, { onDelete: 'cascade' }),
    code_hash: text('code_hash').notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('password_reset_codes_code_hash_key').on(t.code_hash),
    index('password_reset_codes_user_idx').on(t.users_id),
  ],
);

/** Fixed-window counters shared by every server instance (sign-in and recovery throttles). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  window_start: timestamp('window_start', { withTimezone: true }).notNull(),
  count: integer('count').notNull(),
});

/**
 * Sign-in throttles (migration 0012): per account-and-address pair, per account and the
 * account's slow lane. A row counts failures (and attempts in flight) and bars the key until
 * `blocked_until`; claimed and counted by one statement, so concurrent attempts cannot overrun it.
 */
export const signInThrottles = pgTable(
  'sign_in_throttles',
  {
    key: text('key').primaryKey(),
    failures: integer('failures').notNull(),
    last_failure_at: timestamp('last_failure_at', { withTimezone: true }).notNull(),
    blocked_until: timestamp('blocked_until', { withTimezone: true }),
  },
  (t) => [index('sign_in_throttles_last_failure_idx').on(t.last_failure_at)],
);

/** Recovery requests waiting to be mailed: the request path only adds a row. */
export const recoveryOutbox = pgTable(
  'recovery_outbox',
  {
    recovery_outbox_id: integer('recovery_outbox_id').primaryKey().generatedAlwaysAsIdentity(),
    email: text('email').notNull(),
    lang: text('lang').notNull(),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    created_at: createdAt(),
  },
  (t) => [index('recovery_outbox_next_attempt_idx').on(t.next_attempt_at)],
);

/** Requests sent from /login/request-access; reviewed by platform administrators. */
export const accessRequests = pgTable(
  'access_requests',
  {
    access_requests_id: integer('access_requests_id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    client_name: text('client_name').notNull(),
    message: text('message'),
    status: text('status').notNull().default('pending'),
    ip: text('ip'),
    created_at: createdAt(),
  },
  (t) => [index('access_requests_status_idx').on(t.status, t.created_at)],
);

/* ---------- Operations. Every tenant-owned row carries rota_clients_id. ---------- */

const tenant = () =>
  integer('rota_clients_id')
    .notNull()
    .references(() => rotaClients.rota_clients_id, { onDelete: 'cascade' });

export const rotaRobots = pgTable(
  'rota_robots',
  {
    rota_robots_id: integer('rota_robots_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    name: text('name').notNull(),
    description: text('description'),
    executor: text('executor').notNull(),
    remote_root: text('remote_root'),
    active: boolean('active').notNull().default(true),
    rota_robot_versions_id_current: integer('rota_robot_versions_id_current').references(
      (): AnyPgColumn => rotaRobotVersions.rota_robot_versions_id,
      { onDelete: 'set null' },
    ),
    /** A task created without a deadline is due this many minutes after it was created. */
    task_sla_minutes: integer('task_sla_minutes'),
    /** An unfinished task whose deadline is closer than this is at risk. */
    task_risk_minutes: integer('task_risk_minutes'),
    /** How often a task that ended in an application error goes back to pending. */
    task_retries: integer('task_retries').notNull().default(0),
    /** A processing run with no activity (log, progress) for this long is stalled. */
    stall_minutes: integer('stall_minutes'),
    /** `flag` (mark it) or `kill` (end it as an application error, retried per its retries). */
    stall_action: text('stall_action').notNull().default('flag'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('rota_robots_client_name_key').on(t.rota_clients_id, sql`lower(${t.name})`),
    index('rota_robots_client_created_idx').on(t.rota_clients_id, t.created_at),
    // Lists sort by name by default and search by substring (pg_trgm, migration 0002).
    index('rota_robots_client_name_idx').on(t.rota_clients_id, t.name),
    index('rota_robots_name_trgm').using('gin', t.name.op('gin_trgm_ops')),
    index('rota_robots_executor_trgm').using('gin', t.executor.op('gin_trgm_ops')),
    index('rota_robots_description_trgm').using('gin', t.description.op('gin_trgm_ops')),
    // The active/inactive filter's total: an index-only count instead of reading every robot.
    index('rota_robots_client_active_idx').on(t.rota_clients_id, t.active),
  ],
);

export const rotaRobotVersions = pgTable(
  'rota_robot_versions',
  {
    rota_robot_versions_id: integer('rota_robot_versions_id')
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    rota_robots_id: integer('rota_robots_id')
      .notNull()
      .references((): AnyPgColumn => rotaRobots.rota_robots_id, { onDelete: 'cascade' }),
    version: text('version').notNull(),
    notes: text('notes'),
    file_name: text('file_name').notNull(),
    format: text('format').notNull(),
    /** Hex SHA-256 of the package; the file lives at DATA_DIR/packages/<sha256>. */
    sha256: text('sha256').notNull(),
    size_bytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    created_by: integer('created_by').references(() => users.users_id, { onDelete: 'set null' }),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('rota_robot_versions_robot_version_key').on(
      t.rota_robots_id,
      sql`lower(${t.version})`,
    ),
    index('rota_robot_versions_sha256_idx').on(t.sha256),
    index('rota_robot_versions_robot_created_idx').on(t.rota_robots_id, t.created_at),
  ],
);

export const rotaRobotFields = pgTable(
  'rota_robot_fields',
  {
    rota_robot_fields_id: integer('rota_robot_fields_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    rota_robots_id: integer('rota_robots_id')
      .notNull()
      .references(() => rotaRobots.rota_robots_id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    label: text('label').notNull(),
    type: text('type').notNull(),
    required: boolean('required').notNull().default(false),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('rota_robot_fields_robot_name_key').on(t.rota_robots_id, sql`lower(${t.name})`),
    index('rota_robot_fields_client_idx').on(t.rota_clients_id, t.name),
    index('rota_robot_fields_name_trgm').using('gin', t.name.op('gin_trgm_ops')),
    index('rota_robot_fields_label_trgm').using('gin', t.label.op('gin_trgm_ops')),
  ],
);

export const rotaTasks = pgTable(
  'rota_tasks',
  {
    rota_tasks_id: integer('rota_tasks_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    rota_robots_id: integer('rota_robots_id')
      .notNull()
      .references(() => rotaRobots.rota_robots_id, { onDelete: 'cascade' }),
    label: text('label'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    priority: integer('priority').notNull().default(50),
    expiration_date: timestamp('expiration_date', { withTimezone: true }).notNull(),
    status: text('status').notNull().default('pending'),
    business_error: text('business_error'),
    attempts: integer('attempts').notNull().default(0),
    /** When the task should be finished (its SLA); null: none. */
    deadline: timestamp('deadline', { withTimezone: true }),
    /** Not handed out before this instant. */
    postpone_until: timestamp('postpone_until', { withTimezone: true }),
    /** When it reached a final status (success, business or application error, expired). */
    finished_at: timestamp('finished_at', { withTimezone: true }),
    /**
     * The SLA state last announced as a live event (`at_risk`, `breached`), so each transition
     * is announced once across instances; null: none yet, or the deadline changed since.
     */
    sla_announced: text('sla_announced'),
    /** The run holding the task while it is `processing`. */
    rota_executions_id: integer('rota_executions_id').references(
      (): AnyPgColumn => rotaExecutions.rota_executions_id,
      { onDelete: 'set null' },
    ),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('rota_tasks_execution_idx').on(t.rota_executions_id),
    index('rota_tasks_pending_expiry_idx')
      .on(t.expiration_date)
      .where(sql`${t.status} = 'pending'`),
    index('rota_tasks_client_created_idx').on(t.rota_clients_id, t.created_at),
    index('rota_tasks_client_status_idx').on(t.rota_clients_id, t.status, t.created_at),
    // The order robots take their next pending task in.
    index('rota_tasks_next_idx').on(
      t.rota_robots_id,
      t.status,
      t.priority.desc(),
      t.deadline,
      t.created_at,
    ),
    // Unfinished tasks with a deadline: the SLA counts and filters read only these.
    index('rota_tasks_open_deadline_idx')
      .on(t.rota_clients_id, t.deadline)
      .where(sql`${t.status} in ('pending', 'processing') and ${t.deadline} is not null`),
    // What the engine's SLA duty reads every tick: open tasks not yet announced breached, by
    // deadline (those near it are a short range).
    index('rota_tasks_sla_watch_idx')
      .on(t.deadline)
      .where(
        sql`${t.status} in ('pending', 'processing') and ${t.deadline} is not null and ${t.sla_announced} is distinct from 'breached'`,
      ),
    index('rota_tasks_label_trgm').using('gin', t.label.op('gin_trgm_ops')),
  ],
);

export const rotaVms = pgTable(
  'rota_vms',
  {
    rota_vms_id: integer('rota_vms_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    name: text('name').notNull(),
    hostname: text('hostname').notNull(),
    label: text('label'),
    os: text('os'),
    description: text('description'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('rota_vms_client_name_key').on(t.rota_clients_id, sql`lower(${t.name})`),
    index('rota_vms_client_name_idx').on(t.rota_clients_id, t.name),
    index('rota_vms_name_trgm').using('gin', t.name.op('gin_trgm_ops')),
    index('rota_vms_hostname_trgm').using('gin', t.hostname.op('gin_trgm_ops')),
    index('rota_vms_label_trgm').using('gin', t.label.op('gin_trgm_ops')),
    index('rota_vms_client_hostname_idx').on(t.rota_clients_id, t.hostname),
  ],
);

/** Agents; the API calls them nodes. Only the SHA-256 of the token is kept. */
export const rotaNodes = pgTable(
  'rota_nodes',
  {
    rota_nodes_id: integer('rota_nodes_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    name: text('name').notNull(),
    rota_vms_id: integer('rota_vms_id')
      .notNull()
      .references(() => rotaVms.rota_vms_id, { onDelete: 'restrict' }),
    token_hash: text('token_hash').notNull(),
    /**
     * The token a "generate new token" replaced: still good for the runs it had already claimed
     * (heartbeats, logs, results), never for a new claim.
     */
    retired_token_hash: text('retired_token_hash'),
    last_seen_at: timestamp('last_seen_at', { withTimezone: true }),
    version: text('version'),
    hostname: text('hostname'),
    os: text('os'),
    /** Connectivity last announced to the console; flips drive live `agent` events. */
    online: boolean('online').notNull().default(false),
    /**
     * The agent's last clean stop (goodbye), by the clock of the instance it said it to. A
     * presence flush leaves alone an agent signed off since its heartbeats began to be
     * gathered, whichever instance heard them.
     */
    signed_off_at: timestamp('signed_off_at', { withTimezone: true }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('rota_nodes_client_name_key').on(t.rota_clients_id, sql`lower(${t.name})`),
    uniqueIndex('rota_nodes_token_hash_key').on(t.token_hash),
    uniqueIndex('rota_nodes_retired_token_hash_key')
      .on(t.retired_token_hash)
      .where(sql`${t.retired_token_hash} is not null`),
    index('rota_nodes_vm_idx').on(t.rota_vms_id),
    index('rota_nodes_client_name_idx').on(t.rota_clients_id, t.name),
    // Not on last_seen_at: every heartbeat writes it, and an index on it would keep those writes
    // from being HOT updates. `online` flips rarely; the filters recheck last_seen_at.
    index('rota_nodes_client_online_idx').on(t.rota_clients_id, t.online),
    index('rota_nodes_name_trgm').using('gin', t.name.op('gin_trgm_ops')),
  ],
);

export const rotaSchedulings = pgTable(
  'rota_schedulings',
  {
    rota_schedulings_id: integer('rota_schedulings_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    name: text('name').notNull(),
    rota_robots_id: integer('rota_robots_id')
      .notNull()
      .references(() => rotaRobots.rota_robots_id, { onDelete: 'restrict' }),
    /** `interval`, `cron` or `queue` (contract SCHEDULING_TRIGGERS). */
    trigger_type: text('trigger_type').notNull().default('interval'),
    /** Used by `interval`; kept (not read) for the other triggers. */
    interval_minutes: integer('interval_minutes').notNull(),
    /** A 5-field cron expression, for `cron`. */
    cron: text('cron'),
    /** IANA time zone `cron` is read in. */
    time_zone: text('time_zone'),
    /** `run_once` or `skip`: what a run missed while no server was up becomes. */
    missed_runs: text('missed_runs').notNull().default('run_once'),
    /** No run is queued on the calendar's excluded dates. */
    rota_calendars_id: integer('rota_calendars_id').references(
      (): AnyPgColumn => rotaCalendars.rota_calendars_id,
      { onDelete: 'restrict' },
    ),
    /** `queue`: pending due tasks that start a run, and how many runs at most at once. */
    min_pending: integer('min_pending').notNull().default(1),
    max_concurrent: integer('max_concurrent').notNull().default(1),
    timeout_minutes: integer('timeout_minutes').notNull(),
    retries: integer('retries').notNull().default(0),
    priority: integer('priority').notNull().default(50),
    sleep: integer('sleep').notNull().default(0),
    active: boolean('active').notNull().default(true),
    deleted_at: timestamp('deleted_at', { withTimezone: true }),
    /**
     * When the scheduler queues its next run; moved on by whichever instance queues it. Null
     * when time never makes it due (a `queue` trigger, a cron without a next occurrence).
     */
    next_run_at: timestamp('next_run_at', { withTimezone: true }).defaultNow(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('rota_schedulings_due_idx')
      .on(t.next_run_at)
      .where(sql`${t.active} and ${t.deleted_at} is null`),
    uniqueIndex('rota_schedulings_client_name_key')
      .on(t.rota_clients_id, sql`lower(${t.name})`)
      .where(sql`${t.deleted_at} is null`),
    index('rota_schedulings_robot_idx').on(t.rota_robots_id),
    index('rota_schedulings_calendar_idx').on(t.rota_calendars_id),
    // The queue triggers the scheduler re-checks.
    index('rota_schedulings_queue_idx')
      .on(t.rota_robots_id)
      .where(sql`${t.trigger_type} = 'queue' and ${t.active} and ${t.deleted_at} is null`),
    index('rota_schedulings_client_name_idx').on(t.rota_clients_id, t.name),
    index('rota_schedulings_name_trgm').using('gin', t.name.op('gin_trgm_ops')),
    // "Deleted schedulings": their total without reading the live ones.
    index('rota_schedulings_client_deleted_idx')
      .on(t.rota_clients_id, t.deleted_at)
      .where(sql`${t.deleted_at} is not null`),
  ],
);

/** Business calendars: dates on which schedulings that name them queue no run. */
export const rotaCalendars = pgTable(
  'rota_calendars',
  {
    rota_calendars_id: integer('rota_calendars_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    name: text('name').notNull(),
    /** IANA time zone the excluded dates are days of. */
    time_zone: text('time_zone').notNull(),
    /** `YYYY-MM-DD`, sorted, unique. */
    excluded_dates: text('excluded_dates')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('rota_calendars_client_name_key').on(t.rota_clients_id, sql`lower(${t.name})`),
    index('rota_calendars_client_name_idx').on(t.rota_clients_id, t.name),
  ],
);

export const rotaSchedulingVms = pgTable(
  'rota_scheduling_vms',
  {
    rota_scheduling_vms_id: integer('rota_scheduling_vms_id')
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    rota_schedulings_id: integer('rota_schedulings_id')
      .notNull()
      .references(() => rotaSchedulings.rota_schedulings_id, { onDelete: 'cascade' }),
    rota_vms_id: integer('rota_vms_id')
      .notNull()
      .references(() => rotaVms.rota_vms_id, { onDelete: 'cascade' }),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('rota_scheduling_vms_key').on(t.rota_schedulings_id, t.rota_vms_id),
    index('rota_scheduling_vms_vm_idx').on(t.rota_vms_id),
  ],
);

export const rotaParameters = pgTable(
  'rota_parameters',
  {
    rota_parameters_id: integer('rota_parameters_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    name: text('name').notNull(),
    value: text('value'),
    /** AES-256-GCM sealed (lib/secret-box.ts); never answered. */
    password_sealed: text('password_sealed'),
    description: text('description'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('rota_parameters_client_name_key').on(t.rota_clients_id, sql`lower(${t.name})`),
    index('rota_parameters_client_name_idx').on(t.rota_clients_id, t.name),
    index('rota_parameters_client_updated_idx').on(t.rota_clients_id, t.updated_at),
    index('rota_parameters_name_trgm').using('gin', t.name.op('gin_trgm_ops')),
    index('rota_parameters_description_trgm').using('gin', t.description.op('gin_trgm_ops')),
  ],
);

/* ---------- Engine ---------- */

/** One run of a robot; retried attempts stay on the same execution. */
export const rotaExecutions = pgTable(
  'rota_executions',
  {
    rota_executions_id: integer('rota_executions_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    rota_robots_id: integer('rota_robots_id')
      .notNull()
      .references((): AnyPgColumn => rotaRobots.rota_robots_id, { onDelete: 'cascade' }),
    rota_schedulings_id: integer('rota_schedulings_id').references(
      () => rotaSchedulings.rota_schedulings_id,
      { onDelete: 'set null' },
    ),
    /** VMs allowed to run it; null: any VM of the client. */
    vm_ids: integer('vm_ids').array(),
    /** The VM of the latest attempt. */
    rota_vms_id: integer('rota_vms_id').references(() => rotaVms.rota_vms_id, {
      onDelete: 'set null',
    }),
    rota_nodes_id: integer('rota_nodes_id').references(() => rotaNodes.rota_nodes_id, {
      onDelete: 'set null',
    }),
    rota_robot_versions_id: integer('rota_robot_versions_id').references(
      () => rotaRobotVersions.rota_robot_versions_id,
      { onDelete: 'set null' },
    ),
    status: text('status').notNull().default('queued'),
    trigger: text('trigger').notNull(),
    priority: integer('priority').notNull(),
    /** Seconds (the API speaks minutes; seconds let tests and future settings be finer). */
    timeout_seconds: integer('timeout_seconds').notNull(),
    retries: integer('retries').notNull().default(0),
    sleep_seconds: integer('sleep_seconds').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    exit_code: integer('exit_code'),
    message: text('message'),
    /** `message` as a code of the run-message catalogue and its values, shown in the user's language. */
    message_code: text('message_code'),
    message_params: jsonb('message_params').$type<Record<string, string | number>>(),
    queued_at: timestamp('queued_at', { withTimezone: true }).notNull().defaultNow(),
    started_at: timestamp('started_at', { withTimezone: true }),
    ended_at: timestamp('ended_at', { withTimezone: true }),
    lease_expires_at: timestamp('lease_expires_at', { withTimezone: true }),
    cancel_requested_at: timestamp('cancel_requested_at', { withTimezone: true }),
    /**
     * A stop asked with a grace: the robot gets SIGTERM and this many seconds before its tree is
     * killed; null with `cancel_requested_at` set is a kill now.
     */
    stop_grace_seconds: integer('stop_grace_seconds'),
    /** What the robot last said of its progress (robot API `progress`). */
    progress_percent: integer('progress_percent'),
    progress_message: text('progress_message'),
    /** The later of its last log line and its last progress call (since the attempt started). */
    last_activity_at: timestamp('last_activity_at', { withTimezone: true }),
    /** Processing with no activity for its robot's `stall_minutes`; cleared when activity resumes. */
    stalled: boolean('stalled').notNull().default(false),
    /** SHA-256 of the robot API token of the current attempt; cleared when it ends. */
    run_token_hash: text('run_token_hash'),
    created_by: integer('created_by').references(() => users.users_id, { onDelete: 'set null' }),
  },
  (t) => [
    // The claim order (priority first, then the oldest), only over what waits.
    index('rota_executions_claim_idx')
      .on(t.rota_clients_id, t.priority.desc(), t.queued_at, t.rota_executions_id)
      .where(sql`${t.status} = 'queued'`),
    index('rota_executions_lease_idx')
      .on(t.lease_expires_at)
      .where(sql`${t.status} = 'processing'`),
    index('rota_executions_client_queued_idx').on(t.rota_clients_id, t.queued_at),
    index('rota_executions_robot_queued_idx').on(t.rota_robots_id, t.queued_at),
    index('rota_executions_node_idx')
      .on(t.rota_nodes_id)
      .where(sql`${t.status} = 'processing'`),
    index('rota_executions_scheduling_idx').on(t.rota_schedulings_id, t.status),
    // Retention prunes by age, a client at a time.
    index('rota_executions_client_ended_idx')
      .on(t.rota_clients_id, t.ended_at)
      .where(sql`${t.ended_at} is not null`),
    uniqueIndex('rota_executions_run_token_key').on(t.run_token_hash),
  ],
);

export const rotaExecutionAttempts = pgTable(
  'rota_execution_attempts',
  {
    rota_execution_attempts_id: integer('rota_execution_attempts_id')
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    rota_executions_id: integer('rota_executions_id')
      .notNull()
      .references(() => rotaExecutions.rota_executions_id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    rota_nodes_id: integer('rota_nodes_id').references(() => rotaNodes.rota_nodes_id, {
      onDelete: 'set null',
    }),
    rota_vms_id: integer('rota_vms_id').references(() => rotaVms.rota_vms_id, {
      onDelete: 'set null',
    }),
    status: text('status').notNull().default('processing'),
    exit_code: integer('exit_code'),
    message: text('message'),
    message_code: text('message_code'),
    message_params: jsonb('message_params').$type<Record<string, string | number>>(),
    started_at: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    ended_at: timestamp('ended_at', { withTimezone: true }),
    /** The attempt's robot API token (its fencing credential): a stale one is told apart. */
    run_token_hash: text('run_token_hash'),
    /** `agent` (its result), `server` (lease lost, agent stopped): a later result is late. */
    ended_by: text('ended_by'),
    /** A result the agent delivered after the server had settled the attempt: kept, not applied. */
    late_status: text('late_status'),
    late_exit_code: integer('late_exit_code'),
    late_message: text('late_message'),
    late_reported_at: timestamp('late_reported_at', { withTimezone: true }),
    /** Robot API calls refused because this attempt was no longer current. */
    refused_calls: integer('refused_calls').notNull().default(0),
  },
  (t) => [
    uniqueIndex('rota_execution_attempts_key').on(t.rota_executions_id, t.attempt),
    uniqueIndex('rota_execution_attempts_run_token_key').on(t.run_token_hash),
  ],
);

export const rotaExecutionLogs = pgTable(
  'rota_execution_logs',
  {
    rota_execution_logs_id: bigint('rota_execution_logs_id', { mode: 'number' })
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    rota_executions_id: integer('rota_executions_id')
      .notNull()
      .references(() => rotaExecutions.rota_executions_id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    seq: integer('seq').notNull(),
    stream: text('stream').notNull(),
    line: text('line').notNull(),
    /** A system line as a code of the run-message catalogue and its values. */
    code: text('code'),
    params: jsonb('params').$type<Record<string, string | number>>(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('rota_execution_logs_key').on(t.rota_executions_id, t.attempt, t.seq),
    index('rota_execution_logs_tail_idx').on(t.rota_executions_id, t.rota_execution_logs_id),
  ],
);

/** Cross-instance engine bookkeeping (e.g. when the reaper last ran), by key. */
/** Evidence a run uploaded (robot API `artifact/upload`); the bytes are in the blob store. */
export const rotaArtifacts = pgTable(
  'rota_artifacts',
  {
    rota_artifacts_id: integer('rota_artifacts_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    rota_executions_id: integer('rota_executions_id')
      .notNull()
      .references(() => rotaExecutions.rota_executions_id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    media_type: text('media_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    /** The blob store's name for the bytes. */
    blob_name: text('blob_name').notNull(),
    created_at: createdAt(),
  },
  (t) => [index('rota_artifacts_execution_idx').on(t.rota_executions_id, t.rota_artifacts_id)],
);

export const engineState = pgTable('engine_state', {
  key: text('key').primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull(),
});

/* ---------- Administration. ---------- */

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

/** Connection settings injected into runs; the two secrets are sealed (SecretBox). */
export const rotaEnvironments = pgTable(
  'rota_environments',
  {
    rota_environments_id: integer('rota_environments_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    title: text('title').notNull(),
    db_url: text('db_url'),
    db_name: text('db_name'),
    db_user: text('db_user'),
    db_pass_sealed: text('db_pass_sealed'),
    /** The target (host, port, user, database) db_pass was typed for; null: not known. */
    db_pass_target: text('db_pass_target'),
    db_port: integer('db_port'),
    rota_token_sealed: text('rota_token_sealed'),
    rota_api_url: text('rota_api_url'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('rota_environments_client_title_key').on(t.rota_clients_id, sql`lower(${t.title})`),
  ],
);

/** How each execution status reads on the dashboard; one row per status and client. */
export const rotaStatusItems = pgTable(
  'rota_status_items',
  {
    rota_status_items_id: integer('rota_status_items_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    status: text('status').notNull(),
    category: text('category').notNull(),
    /** Null: the console shows the status's own translated name. */
    label: text('label'),
    color: text('color').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [uniqueIndex('rota_status_items_client_status_key').on(t.rota_clients_id, t.status)],
);

/**
 * Who did what, append-only (a trigger refuses UPDATE and DELETE). Actor and client are copied,
 * not referenced, so the record outlives the user or the client it names.
 */
export const auditLogs = pgTable(
  'audit_logs',
  {
    audit_logs_id: bigint('audit_logs_id', { mode: 'number' })
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    rota_clients_id: integer('rota_clients_id'),
    users_id: integer('users_id'),
    user_name: text('user_name'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entity_id: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    request_id: text('request_id'),
    /** The personal API key the change was made with (its name); null: a session. */
    api_key_name: text('api_key_name'),
    created_at: createdAt(),
  },
  (t) => [
    index('audit_logs_client_created_idx').on(t.rota_clients_id, t.created_at.desc()),
    index('audit_logs_user_idx').on(t.users_id, t.created_at.desc()),
  ],
);

/**
 * Rows per client of the big operations tables, kept exact by statement-level triggers
 * (migration 0008), so an unfiltered list's total is one row read instead of a count over
 * every row. Schedulings count only those not deleted; robots also keep their inactive rows as
 * 'rota_robots.inactive' (migration 0022), so a list filtered on `active` reads its total too.
 * No foreign key: the triggers of a cascade that removes a client's rows must not trip over the
 * client going first.
 */
export const rowCounts = pgTable(
  'row_counts',
  {
    rota_clients_id: integer('rota_clients_id').notNull(),
    table_name: text('table_name').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.rota_clients_id, t.table_name] })],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
});

/**
 * Files kept in the database on PostgreSQL (robot packages by sha256, avatars by their served
 * name), so every instance serves them; the embedded setup keeps them on disk instead (migration
 * 0011, modules/blobs). `touched_at` is renewed whenever an upload reuses the bytes: the orphan
 * sweep only removes blobs untouched for its grace period.
 */
export const blobs = pgTable(
  'blobs',
  {
    blobs_id: bigint('blobs_id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    sha256: text('sha256').notNull(),
    size_bytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    created_at: createdAt(),
    touched_at: timestamp('touched_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('blobs_kind_name_key').on(t.kind, t.name)],
);

/** A blob's bytes in 1 MiB pieces (`seq` from 0), so neither side holds a whole package. */
export const blobChunks = pgTable(
  'blob_chunks',
  {
    blobs_id: bigint('blobs_id', { mode: 'number' })
      .notNull()
      .references(() => blobs.blobs_id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.blobs_id, t.seq] })],
);

/* ---------- Integrations. ---------- */

/**
 * An alert rule: which events of the client (of which robots) go to one channel. The channel's
 * public part is `channel` (`{type, to}` for email, `{type, url}` for a webhook); its secret part
 * (a webhook's signing secret, a Slack or Teams URL) is sealed in `channel_secret`.
 */
export const rotaAlerts = pgTable(
  'rota_alerts',
  {
    rota_alerts_id: integer('rota_alerts_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    events: text('events').array().notNull(),
    /** Empty: every robot of the client. */
    robot_ids: integer('robot_ids')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    channel_type: text('channel_type').notNull(),
    channel: jsonb('channel').$type<Record<string, unknown>>().notNull(),
    channel_secret: text('channel_secret'),
    /** The language its messages are written in (its author's when created). */
    language: text('language').notNull().default('en'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [uniqueIndex('rota_alerts_client_name_key').on(t.rota_clients_id, sql`lower(${t.name})`)],
);

/**
 * The durable outbox: every alertable event of a client, written in the transaction of the
 * change it reports (database triggers on executions, agents and tasks, migration 0018; the
 * scheduler for missed runs), then fanned out to the matching rules' deliveries once.
 */
export const rotaAlertEvents = pgTable(
  'rota_alert_events',
  {
    rota_alert_events_id: bigint('rota_alert_events_id', { mode: 'number' })
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    /** The public id (webhook body `id`). */
    event_uid: text('event_uid')
      .notNull()
      .default(sql`gen_random_uuid()::text`),
    rota_clients_id: tenant(),
    type: text('type').notNull(),
    /** The robot it is about; null for agent events. */
    rota_robots_id: integer('rota_robots_id'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    occurred_at: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    /** Its deliveries were created (or it matched no rule). */
    fanned_out: boolean('fanned_out').notNull().default(false),
  },
  (t) => [
    index('rota_alert_events_pending_idx')
      .on(t.rota_alert_events_id)
      .where(sql`not ${t.fanned_out}`),
    index('rota_alert_events_client_idx').on(t.rota_clients_id, t.rota_alert_events_id.desc()),
    index('rota_alert_events_occurred_idx').on(t.occurred_at),
  ],
);

/**
 * One message to one rule's channel: an event, or several of the same type for the same robot
 * within ten minutes folded into one (`count`). `status`: pending, delivered, failed.
 */
export const rotaAlertDeliveries = pgTable(
  'rota_alert_deliveries',
  {
    rota_alert_deliveries_id: bigint('rota_alert_deliveries_id', { mode: 'number' })
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    /** `X-Rota-Delivery`: stable across retries. */
    delivery_uid: text('delivery_uid')
      .notNull()
      .default(sql`gen_random_uuid()::text`),
    rota_clients_id: tenant(),
    rota_alerts_id: integer('rota_alerts_id')
      .notNull()
      .references(() => rotaAlerts.rota_alerts_id, { onDelete: 'cascade' }),
    /** The latest event folded into it; null for a "send test". */
    rota_alert_events_id: bigint('rota_alert_events_id', { mode: 'number' }).references(
      () => rotaAlertEvents.rota_alert_events_id,
      { onDelete: 'cascade' },
    ),
    event_type: text('event_type').notNull(),
    rota_robots_id: integer('rota_robots_id'),
    count: integer('count').notNull().default(1),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    response_code: integer('response_code'),
    last_error: text('last_error'),
    next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }),
    /** An instance is sending it until then (a crash mid-send: another retries after). */
    locked_until: timestamp('locked_until', { withTimezone: true }),
    first_attempt_at: timestamp('first_attempt_at', { withTimezone: true }),
    delivered_at: timestamp('delivered_at', { withTimezone: true }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('rota_alert_deliveries_due_idx')
      .on(t.next_attempt_at)
      .where(sql`${t.status} = 'pending'`),
    index('rota_alert_deliveries_alert_idx').on(
      t.rota_alerts_id,
      t.rota_alert_deliveries_id.desc(),
    ),
    index('rota_alert_deliveries_group_idx').on(
      t.rota_alerts_id,
      t.event_type,
      t.rota_robots_id,
      t.created_at.desc(),
    ),
  ],
);

/** Up to which event a user has read the bell of a client. */
export const alertReads = pgTable(
  'alert_reads',
  {
    users_id: integer('users_id')
      .notNull()
      .references(() => users.users_id, { onDelete: 'cascade' }),
    rota_clients_id: tenant(),
    seen_event_id: bigint('seen_event_id', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.users_id, t.rota_clients_id] })],
);

/** A robot's run trigger: another system fires it with its token (only the SHA-256 is kept). */
export const rotaTriggers = pgTable(
  'rota_triggers',
  {
    rota_triggers_id: integer('rota_triggers_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    rota_robots_id: integer('rota_robots_id')
      .notNull()
      .references(() => rotaRobots.rota_robots_id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    token_hash: text('token_hash').notNull(),
    /** The token's last four characters, to tell tokens apart in the console. */
    token_hint: text('token_hint').notNull(),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    last_fired_at: timestamp('last_fired_at', { withTimezone: true }),
    created_by: integer('created_by').references(() => users.users_id, { onDelete: 'set null' }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('rota_triggers_token_hash_key').on(t.token_hash),
    uniqueIndex('rota_triggers_robot_name_key').on(t.rota_robots_id, sql`lower(${t.name})`),
    index('rota_triggers_client_idx').on(t.rota_clients_id, t.rota_robots_id),
  ],
);

/** A fire's answer by its `Idempotency-Key`, kept 24 hours: the same key answers it again. */
export const rotaTriggerFires = pgTable(
  'rota_trigger_fires',
  {
    rota_triggers_id: integer('rota_triggers_id')
      .notNull()
      .references(() => rotaTriggers.rota_triggers_id, { onDelete: 'cascade' }),
    idempotency_key: text('idempotency_key').notNull(),
    response: jsonb('response').$type<Record<string, unknown>>().notNull(),
    created_at: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.rota_triggers_id, t.idempotency_key] }),
    index('rota_trigger_fires_created_idx').on(t.created_at),
  ],
);

/**
 * A user's personal API key for one client (only the SHA-256 is kept). `permissions` null: all
 * the user holds there, at each use; otherwise those of them the user still holds.
 */
export const userApiKeys = pgTable(
  'user_api_keys',
  {
    user_api_keys_id: integer('user_api_keys_id').primaryKey().generatedAlwaysAsIdentity(),
    users_id: integer('users_id')
      .notNull()
      .references(() => users.users_id, { onDelete: 'cascade' }),
    rota_clients_id: tenant(),
    name: text('name').notNull(),
    key_hash: text('key_hash').notNull(),
    key_hint: text('key_hint').notNull(),
    permissions: text('permissions').array(),
    expires_at: timestamp('expires_at', { withTimezone: true }),
    last_used_at: timestamp('last_used_at', { withTimezone: true }),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('user_api_keys_key_hash_key').on(t.key_hash),
    index('user_api_keys_user_idx').on(t.users_id, t.rota_clients_id),
    index('user_api_keys_client_idx').on(t.rota_clients_id),
  ],
);

/**
 * Each status a task went through and the execution that held it then, written by a
 * database trigger on every change of a task's status or holder (migration 0019).
 */
export const rotaTaskHistory = pgTable(
  'rota_task_history',
  {
    rota_task_history_id: bigint('rota_task_history_id', { mode: 'number' })
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    rota_tasks_id: integer('rota_tasks_id')
      .notNull()
      .references(() => rotaTasks.rota_tasks_id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    /** The execution holding it, or the one that just let it go. */
    rota_executions_id: integer('rota_executions_id').references(
      () => rotaExecutions.rota_executions_id,
      { onDelete: 'set null' },
    ),
    attempts: integer('attempts').notNull(),
    business_error: text('business_error'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('rota_task_history_task_idx').on(t.rota_tasks_id, t.rota_task_history_id),
    index('rota_task_history_execution_idx').on(t.rota_executions_id),
  ],
);

/** A user's TOTP second factor: the secret sealed with SecretBox; enabled once confirmed. */
export const userMfa = pgTable('user_mfa', {
  users_id: integer('users_id')
    .primaryKey()
    .references(() => users.users_id, { onDelete: 'cascade' }),
  secret_sealed: text('secret_sealed').notNull(),
  /** Null while enrolment waits for its first code. */
  enabled_at: timestamp('enabled_at', { withTimezone: true }),
  /** The last accepted time step, so one code is never accepted twice. */
  last_step: bigint('last_step', { mode: 'number' }),
  created_at: createdAt(),
});

/** Single-use recovery codes of a second factor; only their SHA-256 is kept. */
export const userMfaRecoveryCodes = pgTable(
  'user_mfa_recovery_codes',
  {
    user_mfa_recovery_codes_id: integer('user_mfa_recovery_codes_id')
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    users_id: integer('users_id')
      .notNull()
      .references(() => users.users_id, { onDelete: 'cascade' }),
    code_hash: text('code_hash').notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex('user_mfa_recovery_codes_hash_key').on(t.users_id, t.code_hash)],
);

/** A password accepted, a second factor awaited: short-lived, single-use; only the SHA-256 is kept. */
export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    mfa_challenges_id: integer('mfa_challenges_id').primaryKey().generatedAlwaysAsIdentity(),
    users_id: integer('users_id')
      .notNull()
      .references(() => users.users_id, { onDelete: 'cascade' }),
    challenge_hash: text('challenge_hash').notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    failures: integer('failures').notNull().default(0),
    used_at: timestamp('used_at', { withTimezone: true }),
    ip: text('ip'),
    user_agent: text('user_agent'),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('mfa_challenges_hash_key').on(t.challenge_hash),
    index('mfa_challenges_user_idx').on(t.users_id),
  ],
);

/** OpenID Connect claim value (a group) → client membership with a profile. */
export const oidcMappings = pgTable(
  'oidc_mappings',
  {
    oidc_mappings_id: integer('oidc_mappings_id').primaryKey().generatedAlwaysAsIdentity(),
    claim_value: text('claim_value').notNull(),
    rota_clients_id: integer('rota_clients_id')
      .notNull()
      .references(() => rotaClients.rota_clients_id, { onDelete: 'cascade' }),
    profiles_id: integer('profiles_id')
      .notNull()
      .references(() => profiles.profiles_id, { onDelete: 'cascade' }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('oidc_mappings_claim_client_key').on(t.claim_value, t.rota_clients_id),
    index('oidc_mappings_client_idx').on(t.rota_clients_id),
  ],
);
