import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, link, mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import * as tar from 'tar';
import { VERSION_LABEL } from '@rota/contract';
import { isBlobName, type BlobKind } from '../../modules/blobs/blob-store.js';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BLOB_FOLDERS,
  DATABASE_FILE,
  MANIFEST_FILE,
  type BackupManifest,
} from './manifest.js';
import { readJournal, schemaStateOf } from './schema-state.js';

export interface BackupSource {
  /** The open embedded database: the dump is taken through it, so a running server keeps going. */
  pglite: PGlite;
  dataDir: string;
  /** keyFingerprint of the key the database's secrets are sealed with. */
  keyFingerprint: string;
  migrationsFolder: string;
}

const KIND_OF: Record<(typeof BLOB_FOLDERS)[number], BlobKind> = {
  packages: 'package',
  avatars: 'avatar',
};

/**
 * A backup as a gzipped tar stream. The database is PGlite's own dump of its data folder, taken
 * in one step between two statements (PGlite runs one at a time), so it is what a crash at that
 * instant would have left: every committed transaction, none half. Blobs are linked after the
 * dump: a blob is stored before the row that names it commits, so every blob the dump refers to
 * is already on disk, and their names are their contents, so a link is a frozen copy.
 */
export async function createBackupStream(
  source: BackupSource,
): Promise<{ stream: Readable; manifest: BackupManifest }> {
  const stagingRoot = path.join(source.dataDir, 'backups');
  await mkdir(stagingRoot, { recursive: true });
  const staging = await mkdtemp(path.join(stagingRoot, '.staging-'));
  try {
    const manifest = await stage(source, staging);
    const entries = [MANIFEST_FILE, path.dirname(DATABASE_FILE), ...BLOB_FOLDERS];
    // tar's own stream type, made a Node stream for pipeline() and Fastify's reply.
    const stream = Readable.from(tar.create({ gzip: true, cwd: staging, portable: true }, entries));
    // Also when the caller stops reading (an HTTP client that hung up): the stream is destroyed.
    stream.once('close', () => void rm(staging, { recursive: true, force: true }));
    return { stream, manifest };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

async function stage(source: BackupSource, staging: string): Promise<BackupManifest> {
  const { pglite } = source;
  const journal = await readJournal(source.migrationsFolder);
  const state = await schemaStateOf(pglite);
  const version = await pglite.query<{ server_version: string }>('show server_version');
  // Fewer WAL records to replay when the restored database first opens.
  await pglite.exec('checkpoint');
  const dump = await pglite.dumpDataDir('none');
  await mkdir(path.join(staging, path.dirname(DATABASE_FILE)), { recursive: true });
  await writeFile(path.join(staging, DATABASE_FILE), Buffer.from(await dump.arrayBuffer()));

  const counts = { packages: 0, avatars: 0 };
  for (const folder of BLOB_FOLDERS) {
    const target = path.join(staging, folder);
    await mkdir(target, { recursive: true });
    const from = path.join(source.dataDir, folder);
    const names = (await readdir(from).catch(() => [] as string[])).filter((name) =>
      isBlobName(KIND_OF[folder], name),
    );
    for (const name of names) {
      await linkOrCopy(path.join(from, name), path.join(target, name));
      counts[folder] += 1;
    }
  }

  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    format_version: BACKUP_FORMAT_VERSION,
    rota_version: VERSION_LABEL,
    created_at: new Date().toISOString(),
    postgres_version: version.rows[0]?.server_version ?? 'unknown',
    schema: {
      migrations: state.migrations,
      last_migration: journal.find((entry) => entry.when === state.last)?.tag ?? null,
    },
    secret_key_fingerprint: source.keyFingerprint,
    blobs: counts,
  };
  await writeFile(path.join(staging, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

async function linkOrCopy(from: string, to: string) {
  try {
    await link(from, to);
  } catch (error) {
    // Removed by the orphan sweep since it was listed: nobody refers to it any more.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    // Another file system (DATA_DIR's blobs mounted apart): copy instead.
    await copyFile(from, to);
  }
}

/** Writes a backup to `file`, whole or not at all: aside first, then renamed into place. */
export async function writeBackupFile(source: BackupSource, file: string) {
  const { stream, manifest } = await createBackupStream(source);
  const part = `${file}.${randomUUID()}.part`;
  try {
    await pipeline(stream, createWriteStream(part, { flags: 'wx', mode: 0o600 }));
    await rename(part, file);
  } catch (error) {
    await rm(part, { force: true });
    throw error;
  }
  return manifest;
}
