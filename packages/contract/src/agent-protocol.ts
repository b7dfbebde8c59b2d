import { z } from 'zod';
import {
  idSchema,
  PG_INT_MAX,
  robotOutputSchema,
  storableString,
  timestampSchema,
  toStorable,
} from './common.js';
import type { EXECUTION_STATUSES } from './execution-statuses.js';
import { agentUpdateOfferSchema } from './agent-updates.js';
import { LOG_STREAMS } from './executions.js';
import { labelsSchema } from './labels.js';
import { msg } from './messages.js';
import { runMessageCodeSchema, runMessageParamsSchema } from './run-messages.js';

/**
 * The agent protocol, `/api/rota/agent/api/v1/`, spoken by `apps/agent` with
 * `Authorization: Bearer <agent token>` (the token the agent's create or rotate_token answered).
 */
export const AGENT_PROTOCOL_BASE = '/api/rota/agent/api/v1';

const shortText = (max: number) => storableString().trim().max(max);

/** How an agent was started: by a service manager, by a logon task in a desktop session, by hand. */
export const AGENT_MODES = ['service', 'desktop', 'console'] as const;
export type AgentMode = (typeof AGENT_MODES)[number];

const byteCount = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * `POST hello`: said at start and after every reconnect. The machine's facts after `os` are
 * optional: agents of this major version that predate them are still welcome, and an agent
 * sends them with every hello (free disk changes between two).
 */
export const agentHelloSchema = z.object({
  hostname: shortText(255),
  version: shortText(64),
  os: shortText(120),
  /** The operating system's own name and version, e.g. "Debian GNU/Linux 12", "Windows 11 Pro". */
  os_version: shortText(255).optional(),
  /** Node's name of the processor architecture: x64, arm64. */
  arch: shortText(32).optional(),
  cpus: z.number().int().min(0).max(65_536).optional(),
  memory_bytes: byteCount.optional(),
  /** Free space, for an unprivileged user, on the disk of the agent's work dir. */
  free_disk_bytes: byteCount.optional(),
  mode: z.enum(AGENT_MODES, { error: msg('invalid_value') }).optional(),
  /** Labels the agent declares (`--labels`), beside the console's and its OS and architecture. */
  labels: labelsSchema.optional(),
  /**
   * It runs as a packaged executable (`npm run package:agent`), which can replace itself; a
   * source checkout says false or nothing and is never offered an update.
   */
  packaged: z.boolean().optional(),
  /**
   * An attended agent (`--attended --user ACCESS`): the access of the user, a member of the
   * agent's client, whose attended runs alone it takes.
   */
  attended_user: shortText(255).optional(),
});
export type AgentHello = z.infer<typeof agentHelloSchema>;

export const agentHelloResponseSchema = z.object({
  data: z.object({
    rota_nodes_id: z.number().int(),
    name: z.string(),
    rota_vms_id: z.number().int(),
    heartbeat_seconds: z.number().int(),
    lease_seconds: z.number().int(),
    claim_wait_seconds: z.number().int(),
    /**
     * This server counts a claim's arrival as a heartbeat: an agent holding no run may claim
     * every `heartbeat_seconds` instead of heartbeating too, on one connection instead of two.
     * Absent from older servers: the agent then heartbeats as before.
     */
    claim_is_heartbeat: z.boolean().optional(),
    /**
     * This server takes heartbeats, claims and finishes as messages on one WebSocket,
     * `GET stream` (AGENT_STREAM_PATH): no HTTP request held per idle agent.
     * Absent from older servers: the agent then makes every call over HTTP.
     */
    stream: z.boolean().optional(),
    /** This agent should update itself to this build between runs (agent-updates.ts). */
    update: agentUpdateOfferSchema.optional(),
    /** A maintenance window covers this agent: it takes no new runs until it ends. */
    maintenance: z.boolean().optional(),
  }),
});
export type AgentHelloResponse = z.infer<typeof agentHelloResponseSchema>;

/** A run the agent holds: executing, or finished with its result not yet delivered. */
export const agentRunRefSchema = z.object({
  execution_id: idSchema,
  attempt: z.number().int().min(1).max(PG_INT_MAX),
});
export type AgentRunRef = z.infer<typeof agentRunRefSchema>;

/** `POST heartbeat` every `heartbeat_seconds`: renews the leases of the runs it lists. */
export const agentHeartbeatSchema = z.object({
  running: z.array(agentRunRefSchema).max(1000).default([]),
});
export type AgentHeartbeat = z.infer<typeof agentHeartbeatSchema>;

export const agentHeartbeatResponseSchema = z.object({
  data: z.object({
    /** Runs the console cancelled, or no longer this agent's (lease lost): stop them. */
    cancel: z.array(z.number().int()),
    /**
     * Of those, the ones the console asked to stop gracefully: SIGTERM, then the tree killed
     * after `grace_seconds` (the lease is still this agent's: keep renewing it meanwhile).
     * Absent from older servers.
     */
    stop: z
      .array(z.object({ execution_id: z.number().int(), grace_seconds: z.number().int() }))
      .default([]),
    /** This agent should update itself between runs; absent from older servers. */
    update: agentUpdateOfferSchema.optional(),
    /** A maintenance window covers this agent: it takes no new runs until it ends. */
    maintenance: z.boolean().optional(),
  }),
});

/**
 * `POST goodbye`: said by an agent that stops cleanly, after its robots ended. It lists the
 * results it still holds (kept for its next start); the server shows the agent inactive at
 * once and settles any other run still on it, instead of waiting for its lease to run out.
 */
export const agentGoodbyeSchema = z.object({
  running: z.array(agentRunRefSchema).max(1000).default([]),
});
export type AgentGoodbye = z.infer<typeof agentGoodbyeSchema>;

export const agentGoodbyeResponseSchema = z.object({
  /** Runs the server settled because the agent no longer held them. */
  data: z.object({ released: z.number().int() }),
});

/** `POST claim`: waits up to `wait_seconds` for the next execution this agent's VM may run. */
export const agentClaimSchema = z.object({
  wait_seconds: z.number().int().min(0).max(25).default(25),
});
export type AgentClaim = z.infer<typeof agentClaimSchema>;

export const claimedRunSchema = z.object({
  execution_id: z.number().int(),
  attempt: z.number().int(),
  timeout_minutes: z.number().int(),
  /** The run's time limit; the agent kills the process tree past it (`timeout`). */
  timeout_seconds: z.number().int(),
  robot: z.object({
    rota_robots_id: z.number().int(),
    name: z.string(),
    /** The command line to run, e.g. `node main.js`. */
    executor: z.string(),
    /** Working directory on the VM; null: the agent's work dir. */
    remote_root: z.string().nullable(),
  }),
  /** The robot's current version; null when it has none (the robot is installed on the VM). */
  package: z
    .object({
      rota_robot_versions_id: z.number().int(),
      version: z.string(),
      sha256: z.string(),
      size_bytes: z.number().int(),
      format: z.enum(['zip', 'tar.gz']),
      /** Path (under the protocol base) to GET the package from. */
      download_path: z.string(),
      /**
       * The version's Ed25519 signature and the trusted key (PEM) it was accepted with: the
       * agent checks it against the bytes it downloaded before unpacking. Null: unsigned.
       */
      signature: z.object({ signature: z.string(), public_key: z.string() }).nullable().optional(),
    })
    .nullable(),
  /**
   * Variables the robot's process gets: ROTA_EXECUTION_ID, ROTA_EXECUTION_TOKEN (the robot
   * API token, valid for this run only) and the client's parameters without passwords, as
   * ROTA_PARAM_<NAME>. The agent adds ROTA_API_URL (the server it speaks to, plus `/api`).
   */
  environment: z.record(z.string(), z.string()),
});
export type ClaimedRun = z.infer<typeof claimedRunSchema>;

export const agentClaimResponseSchema = z.object({
  data: claimedRunSchema.nullable(),
  /** With no run: this (idle) agent should update itself; absent from older servers. */
  update: agentUpdateOfferSchema.optional(),
  /** With no run: a maintenance window covers this agent (it takes none until it ends). */
  maintenance: z.boolean().optional(),
});

/** Most runs one claim may take (an agent asks for at most its free slots). */
export const CLAIM_BATCH_MAX = 64;

/**
 * `POST claim-batch`: waits up to `wait_seconds` for work, then takes up to `max` runs at once
 * (an agent asks for its free slots, never more: the server cannot know them).
 */
export const agentClaimBatchSchema = z.object({
  wait_seconds: z.number().int().min(0).max(25).default(25),
  max: z.number().int().min(1).max(CLAIM_BATCH_MAX).default(1),
});
export type AgentClaimBatch = z.infer<typeof agentClaimBatchSchema>;

export const agentClaimBatchResponseSchema = z.object({
  /** Empty after `wait_seconds` without work. */
  data: z.object({
    runs: z.array(claimedRunSchema),
    /** A maintenance window covers this agent: no runs until it ends. */
    maintenance: z.boolean().optional(),
  }),
});

export const agentLogLineSchema = z.object({
  /** Position of the line in its attempt, from 1; a batch sent twice is stored once. */
  seq: z.number().int().min(1).max(PG_INT_MAX),
  stream: z.enum(LOG_STREAMS),
  /** Longer lines are cut at 8,000 characters. */
  line: robotOutputSchema(100_000),
  at: timestampSchema,
  /** A system line as a run-message code and values (run-messages.ts); older agents send none. */
  code: runMessageCodeSchema,
  params: runMessageParamsSchema,
});
export type AgentLogLine = z.infer<typeof agentLogLineSchema>;

/** `POST logs`: a batch of output lines of one attempt. */
export const agentLogBatchSchema = agentRunRefSchema.extend({
  lines: z.array(agentLogLineSchema).max(5000),
});
export type AgentLogBatch = z.infer<typeof agentLogBatchSchema>;

export const agentLogResponseSchema = z.object({
  data: z.object({
    cancel: z.boolean(),
    /** With `cancel`: a graceful stop with this grace (SIGTERM first); null or absent: kill. */
    stop_grace_seconds: z.number().int().nullish(),
  }),
});

/** Robot API `POST status`: whether the console asked this run to stop (or cancelled it). */
export const robotStatusResponseSchema = z.object({
  data: z.object({
    stop_requested: z.boolean(),
    /** A maintenance window covers this run's VM: a robot may finish early and cleanly. */
    maintenance: z.boolean().optional(),
  }),
});

export const AGENT_FINISH_STATUSES = [
  'success',
  'business_error',
  'application_error',
  'timeout',
  'cancelled',
] as const satisfies readonly (typeof EXECUTION_STATUSES)[number][];

/** `POST finish`: the result of one attempt; sending it again changes nothing. */
export const agentFinishSchema = agentRunRefSchema.extend({
  status: z.enum(AGENT_FINISH_STATUSES),
  /**
   * A process's exit code. Windows reports them unsigned (0xC0000005 is 3221225477): they are
   * kept as the signed 32-bit number Windows' own %ERRORLEVEL% shows (-1073741819).
   */
  exit_code: z
    .number()
    .int()
    .min(-(PG_INT_MAX + 1))
    .max(2 ** 32 - 1)
    .transform((code) => (code > PG_INT_MAX ? code - 2 ** 32 : code))
    .nullable(),
  /** The agent's own words about the run, often the robot's last output: NUL replaced. */
  message: robotOutputSchema(2000).nullable(),
  /** `message` as a run-message code and values (run-messages.ts); older agents send none. */
  code: runMessageCodeSchema,
  params: runMessageParamsSchema,
  ended_at: timestampSchema.optional(),
  /**
   * Ask for the next runs in the same request (as `claim-batch` would, after the result is
   * recorded): the answer lists them in `runs`. Older agents send none and get no `runs`.
   */
  claim: agentClaimBatchSchema.optional(),
});
export type AgentFinish = z.infer<typeof agentFinishSchema>;

export const agentFinishResponseSchema = z.object({
  data: z.object({
    /** False when the result was already recorded or the attempt is no longer current. */
    accepted: z.boolean(),
    /** With `claim` in the request: the next runs for the agent (possibly none). */
    runs: z.array(claimedRunSchema).optional(),
  }),
});

/* ---------- Robot API (the running robot's own calls) ---------- */

export const robotTaskSchema = z.object({
  rota_tasks_id: z.number().int(),
  label: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  priority: z.number().int(),
  expiration_date: z.string(),
  /** When it should be finished (ISO); null: no deadline. */
  deadline: z.string().nullable(),
  attempts: z.number().int(),
});
export type RobotTask = z.infer<typeof robotTaskSchema>;

/** `POST task/next`: the robot's next pending task, now held by this run; null when none. */
export const robotTaskNextResponseSchema = z.object({ data: robotTaskSchema.nullable() });

/** `POST task/finish`. */
export const robotTaskFinishSchema = z.object({
  id: idSchema,
  /**
   * `application_error`: the robot failed on it; it goes back to pending until the robot's
   * `task_retries` are spent, then stays `application_error`.
   */
  status: z.enum(['success', 'business_error', 'application_error']),
  /** The robot's words: output, so stored with NUL replaced rather than refused. */
  business_error: z.string().trim().max(2000).transform(toStorable).nullish(),
  /** What went wrong, for `application_error` (kept in the task's `business_error`). */
  message: z.string().trim().max(2000).transform(toStorable).nullish(),
});
export type RobotTaskFinish = z.infer<typeof robotTaskFinishSchema>;

/**
 * `POST progress`: how far the robot got. Each call (and each log line) is activity: it moves
 * the run's `last_activity_at` and clears `stalled`.
 */
export const robotProgressSchema = z.object({
  percent: z
    .number({ error: msg('invalid_number') })
    .int(msg('invalid_integer'))
    .min(0, msg('out_of_range_percent'))
    .max(100, msg('out_of_range_percent'))
    .nullish(),
  message: storableString({ error: msg('invalid_type_text') })
    .trim()
    .max(200, msg('too_long'))
    .nullish(),
});
export type RobotProgress = z.infer<typeof robotProgressSchema>;

/**
 * `POST environment/index`: the client's environments (all their fields), `db_pass` and
 * `rota_token` opened, for this run only. A robot picks one by its title.
 */
export const robotEnvironmentListResponseSchema = z.object({
  data: z.array(
    z.object({
      title: z.string(),
      db_url: z.string().nullable(),
      db_name: z.string().nullable(),
      db_user: z.string().nullable(),
      db_pass: z.string().nullable(),
      db_port: z.number().int().nullable(),
      rota_token: z.string().nullable(),
      rota_api_url: z.string().nullable(),
    }),
  ),
});
export type RunEnvironment = z.infer<typeof robotEnvironmentListResponseSchema>['data'][number];

/** `POST parameter/index`: the client's parameters, passwords opened, for this run only. */
export const robotParameterListResponseSchema = z.object({
  data: z.array(z.object({ name: z.string(), value: z.string(), secret: z.boolean() })),
});

/**
 * `GET stream`, upgraded to a WebSocket with the agent's `Authorization` header: the calls named
 * in AGENT_STREAM_OPERATIONS as JSON text messages, answered in any order, each by its `id`.
 * A message's `body` is the call's HTTP body; the answer's `status` and `body` are
 * what the HTTP call would have answered. Runs handed to a stream that closed before its answer
 * went out go back to the queue, as with an HTTP caller that hung up.
 */
export const AGENT_STREAM_PATH = `${AGENT_PROTOCOL_BASE}/stream`;
export const AGENT_STREAM_OPERATIONS = ['heartbeat', 'claim', 'claim-batch', 'finish'] as const;
export type AgentStreamOperation = (typeof AGENT_STREAM_OPERATIONS)[number];
/** The largest message either side sends (a finish with its message and output is far less). */
export const AGENT_STREAM_MAX_BYTES = 1024 * 1024;
/** Calls one stream may have unanswered at once; more are answered 429. */
export const AGENT_STREAM_MAX_PENDING = 64;

export const agentStreamRequestSchema = z.object({
  id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  op: z.enum(AGENT_STREAM_OPERATIONS),
  body: z.unknown(),
});
export type AgentStreamRequest = z.infer<typeof agentStreamRequestSchema>;

export const agentStreamAnswerSchema = z.object({
  id: z.number().int(),
  status: z.number().int(),
  body: z.unknown(),
});
export type AgentStreamAnswer = z.infer<typeof agentStreamAnswerSchema>;
