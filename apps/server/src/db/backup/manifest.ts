import { z } from 'zod';

/** The archive's entries: the manifest, the database's data folder, and the blobs on disk. */
export const MANIFEST_FILE = 'manifest.json';
export const DATABASE_FILE = 'database/pgdata.tar';
/** Blob folders under DATA_DIR, as the disk blob store names them. */
export const BLOB_FOLDERS = ['packages', 'avatars'] as const;

export const BACKUP_FORMAT = 'rota-backup';
export const BACKUP_FORMAT_VERSION = 1;

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  format_version: z.number().int().min(1),
  rota_version: z.string(),
  created_at: z.string(),
  /** The PostgreSQL inside PGlite that wrote the data folder: a restore opens it with the same. */
  postgres_version: z.string(),
  schema: z.object({
    migrations: z.number().int().min(0),
    last_migration: z.string().nullable(),
  }),
  /** keyFingerprint of the secret key the database's secrets are sealed with; never the key. */
  secret_key_fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
  blobs: z.object({ packages: z.number().int().min(0), avatars: z.number().int().min(0) }),
});

export type BackupManifest = z.infer<typeof manifestSchema>;

/** Short enough to read aloud and compare, long enough never to match by chance. */
export const shortFingerprint = (fingerprint: string) => fingerprint.slice(0, 16);
