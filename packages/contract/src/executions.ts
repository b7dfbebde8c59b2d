import { z } from 'zod';
import {
  booleanFilterSchema,
  boundedIntSchema,
  createdResponseSchema,
  dateRangeFilterShape,
  idSchema,
  isoDateSchema,
  listQuerySchema,
  PG_INT_MAX,
} from './common.js';
import { labelListSchema, labelsSchema } from './labels.js';
import { msg } from './messages.js';
import { timeZoneSchema } from './schedulings.js';
import { runMessageParamsSchema } from './run-messages.js';
import { EXECUTION_STATUSES } from './execution-statuses.js';

/** How an execution came to be; `api`: a run trigger fired by another system. */
export const EXECUTION_TRIGGERS = ['schedule', 'manual', 'api'] as const;
export type ExecutionTrigger = (typeof EXECUTION_TRIGGERS)[number];

/**
 * The exit code with which a robot says "business error" (a robot that cannot speak
 * HTTP ends its run this way); 0 is success, anything else an application error.
 */
export const BUSINESS_ERROR_EXIT_CODE = 3;

/** Engine timings, in seconds. */
export const ENGINE_TIMINGS = {
  /** Agents heartbeat this often. */
  heartbeatSeconds: 10,
  /** A claim lease lasts this long unless a heartbeat renews it; then the agent is "lost". */
  leaseSeconds: 30,
  /** Longest a claim long-poll waits for work. */
  claimWaitSeconds: 25,
} as const;

/**
 * Why a queued execution still waits, most fundamental first: its robot has no
 * current version; no VM it may run on; none of its VMs has an active agent; every active
 * agent is busy; a free agent is taking higher-priority runs first. Null: about to be claimed.
 */
export const PENDING_REASONS = [
  'no_current_version',
  'no_vm',
  'no_agent_with_labels',
  'no_agent_active',
  'agents_busy',
  'waiting_priority',
] as const;
export type PendingReason = (typeof PENDING_REASONS)[number];

/** One row of the activity history (the list's columns plus what the detail shows). */
export const executionSchema = z.object({
  execution_id: z.number().int(),
  rota_robots_id: z.number().int(),
  rota_robots_name: z.string(),
  rota_schedulings_id: z.number().int().nullable(),
  rota_schedulings_name: z.string().nullable(),
  /** The VM it must run on (run now with a VM) or ran on; null: any VM the scheduling allows. */
  rota_vms_id: z.number().int().nullable(),
  rota_vms_name: z.string().nullable(),
  /** The agent that runs or ran its latest attempt. */
  rota_nodes_id: z.number().int().nullable(),
  rota_executor_name: z.string().nullable(),
  rota_robot_versions_id: z.number().int().nullable(),
  version: z.string().nullable(),
  status: z.enum(EXECUTION_STATUSES),
  trigger: z.enum(EXECUTION_TRIGGERS),
  priority: z.number().int(),
  timeout_minutes: z.number().int(),
  /** Retries allowed after the first attempt. */
  retries: z.number().int(),
  /** Attempts started so far. */
  attempts: z.number().int(),
  exit_code: z.number().int().nullable(),
  message: z.string().nullable(),
  /** `message` as a run-message code and values, to show in the user's language. */
  message_code: z.string().nullish(),
  message_params: runMessageParamsSchema,
  queued_at: z.string(),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  /** The sum of its attempts' run times (ended: the duration); queue time is apart. */
  duration_ms: z.number().int().nullable(),
  /** Its attempts' run times summed, the current one up to now; null before the first. */
  run_seconds: z.number().int().nullable().optional(),
  /** Time spent waiting in the queue, before the first attempt and between attempts. */
  queued_seconds: z.number().int().optional(),
  /** The current attempt's start (ISO); null when not processing (a queued retry). */
  attempt_start_date: z.string().nullable().optional(),
  cancel_requested: z.boolean(),
  /** Why a queued execution still waits (PENDING_REASONS); null when not queued or about to run. */
  pending_reason: z.enum(PENDING_REASONS).nullable(),
  /** With `no_agent_with_labels`: the labels no agent of its VMs carries; [] otherwise. */
  missing_labels: labelListSchema,
  /** What an agent must carry to claim it: the robot's required ∪ its scheduling's or Run now's. */
  labels: labelListSchema,
  /** What the robot last said of its progress (robot API `progress`); null: nothing yet. */
  progress_percent: z.number().int().nullable(),
  progress_message: z.string().nullable(),
  /** The later of its last log line and its last progress call (ISO); null: none yet. */
  last_activity_at: z.string().nullable(),
  /** Processing with no activity for its robot's `stall_minutes` (status stays processing). */
  stalled: z.boolean(),
  /**
   * Processing, and its agent's connection was lost at this moment (ISO): the run waits for
   * the agent to come back within its lease. Null otherwise.
   */
  connection_lost_at: z.string().nullable(),
  /** An attended run: the user who started it on their own machine; null: unattended. */
  attended_by: z.number().int().nullable(),
  attended_by_name: z.string().nullable(),
});
export type Execution = z.infer<typeof executionSchema>;

export const executionAttemptSchema = z.object({
  attempt: z.number().int(),
  rota_nodes_id: z.number().int().nullable(),
  rota_executor_name: z.string().nullable(),
  status: z.enum(EXECUTION_STATUSES),
  exit_code: z.number().int().nullable(),
  message: z.string().nullable(),
  message_code: z.string().nullish(),
  message_params: runMessageParamsSchema,
  start_date: z.string(),
  end_date: z.string().nullable(),
  /**
   * The result its agent delivered after the server had settled the attempt (lease lost):
   * recorded, never applied to the execution, which may have run again meanwhile.
   */
  late_result: z
    .object({
      status: z.enum(EXECUTION_STATUSES),
      exit_code: z.number().int().nullable(),
      message: z.string().nullable(),
      reported_at: z.string(),
    })
    .nullable(),
  /** Robot API calls refused because this attempt was no longer current (fencing). */
  refused_calls: z.number().int(),
});
export type ExecutionAttempt = z.infer<typeof executionAttemptSchema>;

export const executionDetailSchema = executionSchema.extend({
  attempt_list: z.array(executionAttemptSchema),
});
export type ExecutionDetail = z.infer<typeof executionDetailSchema>;

export const EXECUTION_SORTS = [
  'queued_at',
  'start_date',
  'end_date',
  'rota_robots_name',
  'rota_executor_name',
  'status',
  'duration',
  'execution_id',
] as const;

/** Filters shared by the activity list and its CSV export. */
const activityFilterShape = {
  status: z.enum(EXECUTION_STATUSES, { error: msg('invalid_value') }).optional(),
  rota_robots_id: idSchema.optional(),
  rota_schedulings_id: idSchema.optional(),
  rota_nodes_id: idSchema.optional(),
  /** Only runs flagged stalled (true) or not (false). */
  stalled: booleanFilterSchema,
  ...dateRangeFilterShape,
};

/** `POST /api/rota/activity/api/v1/index`; the range filters by when the run was queued. */
export const activityListQuerySchema = listQuerySchema.extend({
  sort: z.enum(EXECUTION_SORTS).default('queued_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
  ...activityFilterShape,
});
export type ActivityListQuery = z.infer<typeof activityListQuerySchema>;

/** `POST /api/rota/activity/api/v1/export`: the whole filtered range as CSV (range required). */
export const activityExportQuerySchema = z.object({
  search: z.string().trim().max(200, msg('too_long')).optional(),
  /**
   * The IANA zone the file's dates are written in (the browser's, as the tables show them);
   * left out: UTC. Headers, statuses, delimiter and date format follow `Accept-Language`.
   */
  timeZone: timeZoneSchema.optional(),
  ...activityFilterShape,
  startDate: isoDateSchema,
  endDate: isoDateSchema,
});
export type ActivityExportQuery = z.infer<typeof activityExportQuerySchema>;

export const LOG_STREAMS = ['stdout', 'stderr', 'system'] as const;
export type LogStream = (typeof LOG_STREAMS)[number];

export const executionLogLineSchema = z.object({
  seq: z.number().int(),
  attempt: z.number().int(),
  stream: z.enum(LOG_STREAMS),
  line: z.string(),
  at: z.string(),
  /** A system line as a run-message code and values; absent: `line` is shown as is. */
  code: z.string().nullish(),
  params: runMessageParamsSchema,
});
export type ExecutionLogLine = z.infer<typeof executionLogLineSchema>;

/**
 * `POST /api/rota/activity/api/v1/logs`: lines after `after` (a seq), oldest first, at most
 * `limit`; with `after` 0 (the first load of a tail) the last `limit` lines.
 */
export const executionLogQuerySchema = z.object({
  id: idSchema,
  after: z.number().int().min(0).max(PG_INT_MAX).default(0),
  limit: z.number().int().min(1).max(5000).default(1000),
  /** Only the lines holding this text (case-insensitive substring). */
  search: z.string().trim().max(200, msg('invalid_value')).optional(),
});
export type ExecutionLogQuery = z.infer<typeof executionLogQuerySchema>;

export const executionLogResponseSchema = z.object({
  data: z.array(executionLogLineSchema),
  meta: z.object({ last_seq: z.number().int() }),
});
export type ExecutionLogResponse = z.infer<typeof executionLogResponseSchema>;

/** Seconds a robot gets between SIGTERM and the kill of its tree when stopped (`stop`). */
export const STOP_GRACE_DEFAULT_SECONDS = 30;

/**
 * `POST /api/rota/activity/api/v1/stop`: a queued execution is cancelled at once; a processing
 * one gets a stop request: its robot gets SIGTERM (CTRL_BREAK on Windows) and `grace_seconds`
 * to end before its tree is killed (0: kill now, like `cancel`).
 */
export const executionStopSchema = z.object({
  id: idSchema,
  grace_seconds: boundedIntSchema(0, 600).default(STOP_GRACE_DEFAULT_SECONDS),
});
export type ExecutionStop = z.infer<typeof executionStopSchema>;

/** `POST /api/rota/robot/api/v1/run`: run a robot now, outside its schedulings. */
export const robotRunSchema = z.object({
  id: idSchema,
  rota_vms_id: idSchema.nullish(),
  priority: boundedIntSchema(1, 100).optional(),
  timeout_minutes: boundedIntSchema(1, 1440).optional(),
  retries: boundedIntSchema(0, 10).optional(),
  /** Labels this run needs beside the robot's required ones. */
  labels: labelsSchema.optional(),
});
export type RobotRun = z.infer<typeof robotRunSchema>;

/** Robot "run now" defaults when neither the call nor a scheduling says otherwise. */
export const RUN_NOW_DEFAULTS = { priority: 50, timeout_minutes: 60, retries: 0 } as const;

export const runResponseSchema = createdResponseSchema(
  z.object({ execution_id: z.number().int() }),
);
export type RunResponse = z.infer<typeof runResponseSchema>;
