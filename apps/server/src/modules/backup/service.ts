import type { PGlite } from '@electric-sql/pglite';
import type { Readable } from 'node:stream';
import type { Db } from '../../db/client.js';
import { MIGRATIONS_DIR } from '../../db/client.js';
import { createBackupStream } from '../../db/backup/create-backup.js';
import { isLocalBackupToken } from '../../db/backup/server-lock.js';
import type { BackupManifest } from '../../db/backup/manifest.js';
import { AppError } from '../../lib/errors.js';
import { assertPlatformAdmin } from '../../lib/platform-admin.js';
import type { Actor } from '../../http/types.js';

export interface TakenBackup {
  stream: Readable;
  manifest: BackupManifest;
  fileName: string;
}

/**
 * A backup of the running embedded server, for platform administrators (a session: a personal
 * API key never carries platform administration) and the machine's operator: the database
 * holds every client's data, so no client's administrator may take one.
 */
export class BackupService {
  constructor(private readonly deps: { db: Db; dataDir: string; keyFingerprint: string }) {}

  /** The operator of this machine, holding DATA_DIR's backup token, needs no account. */
  isLocalOperator(token: string): Promise<boolean> {
    return isLocalBackupToken(this.deps.dataDir, token);
  }

  async create(caller: Actor | 'local-operator'): Promise<TakenBackup> {
    if (caller !== 'local-operator') assertPlatformAdmin(caller);
    const pglite = embeddedClientOf(this.deps.db);
    if (!pglite) throw new AppError('backup_on_postgres');
    const { stream, manifest } = await createBackupStream({
      pglite,
      dataDir: this.deps.dataDir,
      keyFingerprint: this.deps.keyFingerprint,
      migrationsFolder: MIGRATIONS_DIR,
    });
    const stamp = manifest.created_at.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
    return { stream, manifest, fileName: `rota-backup-${stamp}.tar.gz` };
  }
}

/** The PGlite behind an embedded server's database; null on PostgreSQL. */
function embeddedClientOf(db: Db): PGlite | null {
  const client = (db as unknown as { $client?: Partial<PGlite> }).$client;
  return typeof client?.dumpDataDir === 'function' ? (client as PGlite) : null;
}
