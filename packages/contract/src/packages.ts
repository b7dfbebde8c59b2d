import { z } from 'zod';
import {
  idSchema,
  idsBodySchema,
  listQuerySchema,
  optionalTextSchema,
  requiredIdSchema,
  requiredTextSchema,
} from './common.js';
import { robotVersionSchema } from './robots.js';

/** A client's package: versions any of its robots may run. */
export const packageSchema = z.object({
  rota_packages_id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  versions: z.number().int(),
  /** The newest approved version: what robots following "latest" run. */
  latest_version: z
    .object({ rota_robot_versions_id: z.number().int(), version: z.string() })
    .nullable(),
  /** Robots that run one of its versions. */
  robots: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Package = z.infer<typeof packageSchema>;

export const packageCreateSchema = z.object({
  name: requiredTextSchema(120, 'required_name'),
  description: optionalTextSchema(2000),
});
export type PackageCreate = z.infer<typeof packageCreateSchema>;

export const packageUpdateSchema = packageCreateSchema.extend({ id: idSchema });
export type PackageUpdate = z.infer<typeof packageUpdateSchema>;

export const packageListQuerySchema = listQuerySchema.extend({
  sort: z.enum(['name', 'created_at']).default('name'),
});
export type PackageListQuery = z.infer<typeof packageListQuerySchema>;

/** A version in the feed (`current` is about the robot it was uploaded through, if any). */
export const packageVersionSchema = robotVersionSchema;
export type PackageVersion = z.infer<typeof packageVersionSchema>;

export const packageVersionListQuerySchema = listQuerySchema.extend({
  rota_packages_id: requiredIdSchema('required_package'),
  sort: z.enum(['created_at', 'version']).default('created_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type PackageVersionListQuery = z.infer<typeof packageVersionListQuerySchema>;

/** Multipart text parts are strings; a form may hold a number: both mean a key. */
const packageIdPartSchema = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  requiredIdSchema('required_package'),
);

/** The text parts of a feed upload; the `file` part carries the package. */
export const packageVersionCreateSchema = z.object({
  rota_packages_id: packageIdPartSchema,
  version: requiredTextSchema(50, 'required_version'),
  notes: optionalTextSchema(2000),
  /** Base64 Ed25519 signature over the package's SHA-256, by a key the client trusts. */
  signature: optionalTextSchema(200),
});
export type PackageVersionCreate = z.infer<typeof packageVersionCreateSchema>;

/**
 * `PUT /api/rota/robot/api/v1/package`: the package a robot runs, and which of its versions;
 * a null version follows the package's newest approved version ("latest").
 */
export const robotPackageSchema = z.object({
  id: idSchema,
  rota_packages_id: requiredIdSchema('required_package'),
  rota_robot_versions_id: idSchema.nullable(),
});
export type RobotPackage = z.infer<typeof robotPackageSchema>;

/** `POST /api/rota/package/api/v1/update-robots`: these robots move to the newest version. */
export const packageUpdateRobotsSchema = idsBodySchema.extend({
  rota_packages_id: requiredIdSchema('required_package'),
});
export type PackageUpdateRobots = z.infer<typeof packageUpdateRobotsSchema>;

export const packageUpdateRobotsResponseSchema = z.object({
  message: z.string(),
  /** The version they now run. */
  rota_robot_versions_id: z.number().int(),
  updated: z.number().int(),
});

/** An Ed25519 public key the client trusts to sign its packages. */
export const packageKeySchema = z.object({
  rota_package_keys_id: z.number().int(),
  name: z.string(),
  /** SPKI PEM. */
  public_key: z.string(),
  /** Hex SHA-256 of the key's DER bytes. */
  fingerprint: z.string(),
  created_at: z.string(),
});
export type PackageKey = z.infer<typeof packageKeySchema>;

export const packageKeyCreateSchema = z.object({
  name: requiredTextSchema(120, 'required_name'),
  public_key: requiredTextSchema(2000, 'invalid_public_key'),
});
export type PackageKeyCreate = z.infer<typeof packageKeyCreateSchema>;

export const packageKeyUpdateSchema = z.object({
  id: idSchema,
  name: requiredTextSchema(120, 'required_name'),
});
export type PackageKeyUpdate = z.infer<typeof packageKeyUpdateSchema>;

export const packageKeyListQuerySchema = listQuerySchema.extend({
  sort: z.enum(['name', 'created_at']).default('name'),
});
export type PackageKeyListQuery = z.infer<typeof packageKeyListQuerySchema>;
