import { z } from 'zod';
import {
  booleanFilterSchema,
  idSchema,
  listQuerySchema,
  requiredIdSchema,
  optionalTextSchema,
  requiredTextSchema,
} from './common.js';
import { robotSortColumns } from './list-sorts.js';
import { labelListSchema, labelsSchema } from './labels.js';
import { msg } from './messages.js';

/** A robot (process): what the agent runs, where, and which version. */
export const robotSchema = z.object({
  rota_robots_id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  executor: z.string(),
  remote_root: z.string().nullable(),
  active: z.boolean(),
  current_version: z
    .object({ rota_robot_versions_id: z.number().int(), version: z.string() })
    .nullable(),
  /** The package (feed) whose versions it runs; null until it has one. */
  rota_packages_id: z.number().int().nullable(),
  /** It runs the package's newest approved version, moving on as new ones arrive. */
  follow_latest: z.boolean(),
  /** A task created without a deadline is due this many minutes later; null: no default. */
  task_sla_minutes: z.number().int().nullable(),
  /** An unfinished task closer than this to its deadline is at risk; null: never at risk. */
  task_risk_minutes: z.number().int().nullable(),
  /** How often a task ending in an application error goes back to pending. */
  task_retries: z.number().int(),
  /** A processing run with no activity for this long is stalled; null: never. */
  stall_minutes: z.number().int().nullable(),
  /** What a stall does: flag it, or end it as an application error (retried per its retries). */
  stall_action: z.enum(['flag', 'kill']),
  /** Only an agent carrying every one of these may run it; empty: any agent. */
  required_labels: labelListSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Robot = z.infer<typeof robotSchema>;

/** Minutes for the task SLA fields: one minute to one year. */
export const ROBOT_TASK_MINUTES_MAX = 525_600;
export const ROBOT_TASK_RETRIES_MAX = 10;

const taskMinutesSchema = z
  .number({ error: msg('invalid_number') })
  .int(msg('invalid_integer'))
  .min(1, msg('out_of_range_task_minutes'))
  .max(ROBOT_TASK_MINUTES_MAX, msg('out_of_range_task_minutes'));

const taskRetriesSchema = z
  .number({ error: msg('invalid_number') })
  .int(msg('invalid_integer'))
  .min(0, msg('out_of_range_task_retries'))
  .max(ROBOT_TASK_RETRIES_MAX, msg('out_of_range_task_retries'));

/** Minutes without activity before a run is stalled: one minute to one day. */
export const ROBOT_STALL_MINUTES_MAX = 1440;
export const STALL_ACTIONS = ['flag', 'kill'] as const;
export type StallAction = (typeof STALL_ACTIONS)[number];

const stallMinutesSchema = z
  .number({ error: msg('invalid_number') })
  .int(msg('invalid_integer'))
  .min(1, msg('out_of_range_stall_minutes'))
  .max(ROBOT_STALL_MINUTES_MAX, msg('out_of_range_stall_minutes'));

const stallActionSchema = z.enum(STALL_ACTIONS, { error: msg('invalid_value') });

const robotFields = {
  name: requiredTextSchema(120, 'required_process_name'),
  description: optionalTextSchema(2000),
  executor: requiredTextSchema(1000, 'required_executor'),
  remote_root: optionalTextSchema(500),
  active: z.boolean({ error: msg('invalid_value') }).default(true),
  task_sla_minutes: taskMinutesSchema.nullish(),
  task_risk_minutes: taskMinutesSchema.nullish(),
  task_retries: taskRetriesSchema.default(0),
  stall_minutes: stallMinutesSchema.nullish(),
  stall_action: stallActionSchema.default('flag'),
  required_labels: labelsSchema.default([]),
};

export const robotCreateSchema = z.object(robotFields);
export type RobotCreate = z.infer<typeof robotCreateSchema>;

export const robotUpdateSchema = z.object({
  id: idSchema,
  name: robotFields.name.optional(),
  description: robotFields.description.optional(),
  executor: robotFields.executor.optional(),
  remote_root: robotFields.remote_root.optional(),
  active: z.boolean({ error: msg('invalid_value') }).optional(),
  /** null clears it. */
  task_sla_minutes: taskMinutesSchema.nullable().optional(),
  /** null clears it. */
  task_risk_minutes: taskMinutesSchema.nullable().optional(),
  task_retries: taskRetriesSchema.optional(),
  /** null clears it. */
  stall_minutes: stallMinutesSchema.nullable().optional(),
  stall_action: stallActionSchema.optional(),
  required_labels: labelsSchema.optional(),
});
export type RobotUpdate = z.infer<typeof robotUpdateSchema>;

export const robotListQuerySchema = listQuerySchema.extend({
  sort: z.enum(robotSortColumns).default('name'),
  active: booleanFilterSchema,
});
export type RobotListQuery = z.infer<typeof robotListQuerySchema>;

/** Robot package uploads (multipart): .zip or .tar.gz, at most 100 MB. */
export const ROBOT_PACKAGE_MAX_BYTES = 100 * 1024 * 1024;
export const ROBOT_PACKAGE_FORMATS = ['zip', 'tar.gz'] as const;

/**
 * Limits a package must keep to be unpacked, read by the server at upload and by the agent when
 * it unpacks, so a version the server accepted is never refused at run time.
 */
/** Sum of the entries' (declared) sizes. */
export const ROBOT_PACKAGE_MAX_UNPACKED_BYTES = 2 * 1024 * 1024 * 1024;
/** Entries (files, folders) in one archive; a node_modules holds tens of thousands. */
export const ROBOT_PACKAGE_MAX_ENTRIES = 100_000;
/**
 * Declared size over compressed size of one zip entry. Deflate cannot exceed about 1032:1, so a
 * higher ratio is a size the data cannot hold (a bomb, or a lie the unzip would stop on).
 */
export const ROBOT_PACKAGE_MAX_RATIO = 1100;
export type RobotPackageFormat = (typeof ROBOT_PACKAGE_FORMATS)[number];

export const robotVersionSchema = z.object({
  rota_robot_versions_id: z.number().int(),
  /** The package (feed) it belongs to: any robot on that package may run it. */
  rota_packages_id: z.number().int(),
  /** The robot it was uploaded through; null when uploaded to the feed. */
  rota_robots_id: z.number().int().nullable(),
  version: z.string(),
  notes: z.string().nullable(),
  file_name: z.string(),
  format: z.enum(ROBOT_PACKAGE_FORMATS),
  sha256: z.string(),
  size_bytes: z.number().int(),
  current: z.boolean(),
  /** The trusted key that signed it (its fingerprint); null: unsigned. */
  signed_by: z.object({ fingerprint: z.string(), name: z.string().nullable() }).nullable(),
  created_at: z.string(),
});
export type RobotVersion = z.infer<typeof robotVersionSchema>;

/** The format a package's file name says it is; null when it is neither. */
export function robotPackageFormat(fileName: string): RobotPackageFormat | null {
  const name = fileName.trim().toLowerCase();
  if (name.endsWith('.zip')) return 'zip';
  if (name.endsWith('.tar.gz') || name.endsWith('.tgz')) return 'tar.gz';
  return null;
}

/** Multipart text parts are strings; a form may hold a number: both mean a key. */
const robotIdPartSchema = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  requiredIdSchema('required_robot'),
);

/** The text parts of the multipart `create`; the `file` part carries the package. */
export const robotVersionCreateSchema = z.object({
  rota_robots_id: robotIdPartSchema,
  version: requiredTextSchema(50, 'required_version'),
  notes: optionalTextSchema(2000),
  /** Base64 Ed25519 signature over the package's SHA-256, by a key the client trusts. */
  signature: optionalTextSchema(200),
});
export type RobotVersionCreate = z.infer<typeof robotVersionCreateSchema>;

export const robotVersionUpdateSchema = z.object({
  id: idSchema,
  current: z.literal(true, { error: msg('invalid_value') }).optional(),
  notes: optionalTextSchema(2000).optional(),
});
export type RobotVersionUpdate = z.infer<typeof robotVersionUpdateSchema>;

export const robotVersionListQuerySchema = listQuerySchema.extend({
  rota_robots_id: requiredIdSchema('required_robot'),
  sort: z.enum(['created_at', 'version']).default('created_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type RobotVersionListQuery = z.infer<typeof robotVersionListQuerySchema>;

export const ROBOT_FIELD_TYPES = ['text', 'number', 'boolean', 'date', 'json'] as const;
export type RobotFieldType = (typeof ROBOT_FIELD_TYPES)[number];

/** An input a robot's tasks carry in `data`. */
export const robotFieldSchema = z.object({
  rota_robot_fields_id: z.number().int(),
  rota_robots_id: z.number().int(),
  name: z.string(),
  label: z.string(),
  type: z.enum(ROBOT_FIELD_TYPES),
  required: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RobotField = z.infer<typeof robotFieldSchema>;

/** A blank name is only "required", not also a bad identifier. */
const fieldName = requiredTextSchema(64, 'required_name').refine(
  (v) => v === '' || /^[A-Za-z][A-Za-z0-9_]*$/.test(v),
  msg('invalid_identifier'),
);

export const robotFieldCreateSchema = z.object({
  rota_robots_id: requiredIdSchema('required_robot'),
  name: fieldName,
  label: requiredTextSchema(120, 'required_label'),
  type: z.enum(ROBOT_FIELD_TYPES, { error: msg('invalid_value') }).default('text'),
  required: z.boolean({ error: msg('invalid_value') }).default(false),
});
export type RobotFieldCreate = z.infer<typeof robotFieldCreateSchema>;

export const robotFieldUpdateSchema = z.object({
  id: idSchema,
  name: fieldName.optional(),
  label: requiredTextSchema(120, 'required_label').optional(),
  type: z.enum(ROBOT_FIELD_TYPES, { error: msg('invalid_value') }).optional(),
  required: z.boolean({ error: msg('invalid_value') }).optional(),
});
export type RobotFieldUpdate = z.infer<typeof robotFieldUpdateSchema>;

export const robotFieldListQuerySchema = listQuerySchema.extend({
  rota_robots_id: idSchema.optional(),
  sort: z.enum(['name', 'label', 'type', 'created_at']).default('name'),
});
export type RobotFieldListQuery = z.infer<typeof robotFieldListQuerySchema>;
