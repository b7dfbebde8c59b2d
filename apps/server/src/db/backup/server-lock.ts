import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * DATA_DIR/server.json: which process holds the embedded database and where it answers. PGlite
 * is one process's database; a second process opening the same folder would damage it, so the
 * backup command reads this first and asks the running server for the backup instead.
 */
const LOCK_FILE = 'server.json';

export interface RunningServer {
  pid: number;
  url: string;
  /**
   * Lets whoever can read DATA_DIR (the operator on this machine) ask this server for a backup
   * without an account: reading the folder already gives them the data.
   */
  backup_token: string;
}

export async function markServerRunning(
  dataDir: string,
  url: string,
): Promise<() => Promise<void>> {
  const file = path.join(dataDir, LOCK_FILE);
  const lock: RunningServer = {
    pid: process.pid,
    url,
    backup_token: randomBytes(32).toString('hex'),
  };
  await writeFile(file, JSON.stringify(lock) + '\n', { mode: 0o600 });
  return () => rm(file, { force: true });
}

/** Whether `token` is the backup token of the server holding `dataDir`. */
export async function isLocalBackupToken(dataDir: string, token: string): Promise<boolean> {
  const lock = await readLock(dataDir);
  if (!lock || typeof lock.backup_token !== 'string') return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(lock.backup_token), digest(token));
}

async function readLock(dataDir: string): Promise<RunningServer | null> {
  const text = await readFile(path.join(dataDir, LOCK_FILE), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    return JSON.parse(text) as RunningServer;
  } catch {
    return null;
  }
}

/** The server holding DATA_DIR, or null when none runs (a lock left by a crash is ignored). */
export async function runningServer(dataDir: string): Promise<RunningServer | null> {
  const found = await readLock(dataDir);
  if (!found || !Number.isInteger(found.pid) || found.pid === process.pid) return null;
  try {
    process.kill(found.pid, 0);
    return found;
  } catch (error) {
    // EPERM: alive, but another user's process.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? found : null;
  }
}
