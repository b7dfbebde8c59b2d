import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import { SECRET_KEY_FILE } from '../../config/secret-key.js';
import { keyFingerprint } from '../../lib/secret-box.js';
import { createPglite } from '../pglite.js';
import {
  BACKUP_FORMAT_VERSION,
  BLOB_FOLDERS,
  DATABASE_FILE,
  MANIFEST_FILE,
  manifestSchema,
  shortFingerprint,
  type BackupManifest,
} from './manifest.js';
import { readJournal, schemaStateOf } from './schema-state.js';

/** A restore refused before anything was written; `message` says why and what to do. */
export class RestoreError extends Error {
  constructor(
    readonly reason:
      | 'target_not_empty'
      | 'not_a_backup'
      | 'newer_backup'
      | 'key_missing'
      | 'key_mismatch'
      | 'corrupt',
    message: string,
  ) {
    super(message);
    this.name = 'RestoreError';
  }
}

export interface RestoreOptions {
  archive: string;
  /** The new DATA_DIR: absent or an empty folder. */
  target: string;
  /** The key that sealed the backup's secrets; null when none was given. */
  secretKey: Buffer | null;
  /** Write the key as the new folder's key file (it came from a file, not ROTA_SECRET_KEY). */
  writeKeyFile: boolean;
  /** Restore although the key does not open the backup's secrets (they stay unreadable). */
  forceOtherKey: boolean;
  migrationsFolder: string;
}

/**
 * Restores a backup into a new data folder. Everything is built in a hidden sibling of the
 * target and renamed into place at the end, so an interrupted or refused restore never leaves
 * a folder a server would start on.
 */
export async function restoreBackup(options: RestoreOptions): Promise<BackupManifest> {
  const target = path.resolve(options.target);
  await assertEmptyTarget(target);
  await mkdir(path.dirname(target), { recursive: true });
  const work = path.join(
    path.dirname(target),
    `.${path.basename(target)}.restoring-${randomUUID()}`,
  );
  await mkdir(work, { mode: 0o700 });
  try {
    await extract(options.archive, work);
    const manifest = await readManifest(work, options.migrationsFolder);
    checkKey(manifest, options);
    await loadDatabase(work, manifest);
    await checkBlobs(work);
    if (options.secretKey && options.writeKeyFile) {
      await writeFile(path.join(work, SECRET_KEY_FILE), options.secretKey.toString('hex') + '\n', {
        mode: 0o600,
        flag: 'wx',
      });
    }
    // Checked again: someone may have written into the target while the restore ran.
    await assertEmptyTarget(target);
    await rmdir(target).catch(() => undefined);
    await rename(work, target);
    return manifest;
  } catch (error) {
    await rm(work, { recursive: true, force: true });
    throw error;
  }
}

async function assertEmptyTarget(target: string) {
  const found = await stat(target).catch(() => null);
  if (!found) return;
  if (!found.isDirectory() || (await readdir(target)).length > 0) {
    throw new RestoreError(
      'target_not_empty',
      `${target} is not empty: restore into a new folder (DATA_DIR), never over existing data.`,
    );
  }
}

/** Only what a backup holds is extracted; tar refuses absolute paths and `..` by itself. */
const ENTRY = /^(manifest\.json|database(\/pgdata\.tar)?|(packages|avatars)(\/[^/]+)?)\/?$/;

async function extract(archive: string, work: string) {
  try {
    await pipeline(
      createReadStream(archive),
      tar.extract({
        cwd: work,
        strict: true,
        filter: (entryPath, entry) =>
          ENTRY.test(entryPath.replace(/^\.\//, '')) &&
          (!('type' in entry) || entry.type === 'File' || entry.type === 'Directory'),
      }),
    );
  } catch (error) {
    if (!(await stat(archive).catch(() => null))) {
      throw new RestoreError('not_a_backup', `${archive} does not exist.`);
    }
    throw new RestoreError(
      'not_a_backup',
      `${archive} is not a Rota backup (${(error as Error).message}).`,
    );
  }
}

async function readManifest(work: string, migrationsFolder: string): Promise<BackupManifest> {
  const text = await readFile(path.join(work, MANIFEST_FILE), 'utf8').catch(() => null);
  const parsed = text === null ? null : manifestSchema.safeParse(safeJson(text));
  if (!parsed?.success) {
    throw new RestoreError('not_a_backup', 'The archive has no Rota backup manifest.');
  }
  const manifest = parsed.data;
  const journal = await readJournal(migrationsFolder);
  if (
    manifest.format_version > BACKUP_FORMAT_VERSION ||
    manifest.schema.migrations > journal.length
  ) {
    throw new RestoreError(
      'newer_backup',
      `The backup was made by Rota ${manifest.rota_version} with a newer database schema: restore it with that version or a later one.`,
    );
  }
  return manifest;
}

function checkKey(manifest: BackupManifest, options: RestoreOptions) {
  if (options.forceOtherKey) return;
  const wanted = shortFingerprint(manifest.secret_key_fingerprint);
  if (!options.secretKey) {
    throw new RestoreError(
      'key_missing',
      `The backup's secrets are sealed with the key of fingerprint ${wanted}: give that key with ROTA_SECRET_KEY or --key-file (the secret.key of the old DATA_DIR).`,
    );
  }
  const given = keyFingerprint(options.secretKey);
  if (given !== manifest.secret_key_fingerprint) {
    throw new RestoreError(
      'key_mismatch',
      `Secret key fingerprint mismatch: the backup's secrets are sealed with the key of fingerprint ${wanted}, the key given has fingerprint ${shortFingerprint(given)}. Give the key of the server that made the backup, or --force-other-key to restore with secrets nobody can read.`,
    );
  }
}

/** PGlite unpacks the dumped data folder into the new one, which proves the dump opens. */
async function loadDatabase(work: string, manifest: BackupManifest) {
  const dump = await readFile(path.join(work, DATABASE_FILE)).catch(() => null);
  if (!dump) throw new RestoreError('corrupt', 'The backup holds no database.');
  const pglite = await createPglite({
    dataDir: path.join(work, 'pglite'),
    loadDataDir: new Blob([dump]),
  });
  try {
    const state = await schemaStateOf(pglite);
    if (state.migrations !== manifest.schema.migrations) {
      throw new RestoreError(
        'corrupt',
        `The backup's database has ${state.migrations} migrations, its manifest says ${manifest.schema.migrations}.`,
      );
    }
  } finally {
    await pglite.close();
  }
  await rm(path.join(work, path.dirname(DATABASE_FILE)), { recursive: true, force: true });
}

/** A blob's name is its content's sha256: a blob that does not hash to it is damaged. */
async function checkBlobs(work: string) {
  for (const folder of BLOB_FOLDERS) {
    const dir = path.join(work, folder);
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const digest = createHash('sha256')
        .update(await readFile(path.join(dir, name)))
        .digest('hex');
      if (!name.startsWith(digest)) {
        throw new RestoreError('corrupt', `The backup's ${folder}/${name} is damaged.`);
      }
    }
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
