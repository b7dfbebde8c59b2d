import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import { artifactBlobs } from '../artifacts/views.js';
import { lockPackage } from '../robot-versions/package-lock.js';
import { packageSummaries as versions } from '../robot-versions/views.js';
import { AVATAR_URL_PREFIX } from '../users/avatar-store.js';
import { userAccounts as accounts } from '../users/views.js';
import { BLOB_KINDS, type BlobKind, type BlobStore, type Referenced } from './blob-store.js';

/**
 * How long a blob or temp file nobody uses is kept before the sweep removes it. An upload
 * writes its bytes before the row that uses them (a picture) or keeps writing a temp file for
 * as long as the body streams in; an hour covers both with room to spare.
 */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;
export const SWEEP_INTERVAL_MS = 15 * 60 * 1000;

/**
 * A temp file's name. Uploads stream into one and rename it into place when done, so one still
 * there after its server died (a crash, SIGKILL, a power cut) is nobody's.
 */
const isTempFile = (name: string) => name.endsWith('.part');

/**
 * Who uses a blob: versions of any client and runs' artifacts (files are shared by content),
 * users' pictures.
 * Read through their owners' views, which PostgreSQL inlines (the same plan as on the tables).
 */
const REFERENCES: Record<BlobKind, Referenced> = {
  package: {
    // An execution's delete (retention) cascades to its artifacts' rows.
    exists: (name) =>
      sql`(exists (select 1 from ${versions} where ${versions.sha256} = ${name})
        or exists (select 1 from ${artifactBlobs} where ${artifactBlobs.blob_name} = ${name}))`,
    lock: (tx, name) => lockPackage(tx, name),
  },
  avatar: {
    exists: (name) =>
      sql`exists (select 1 from ${accounts} where ${accounts.avatar} = ${AVATAR_URL_PREFIX} || ${name})`,
  },
};

export interface SweepReport {
  blobs: { kind: BlobKind; name: string }[];
  /** Temp files of uploads that never finished (a crash, a connection that hung). */
  temp: string[];
}

/**
 * Removes what nobody uses any more: blobs of deleted versions and robots (a robot's delete
 * cascades to its versions without a word to the store), pictures nobody shows, and temp
 * files of crashed uploads. Every instance may sweep; the statements are idempotent.
 */
export class BlobSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly db: Db,
    private readonly store: BlobStore,
    /** Folders holding `*.part` temp files (local disk in either backend). */
    private readonly tempDirs: string[],
    private readonly options: {
      intervalMs?: number;
      graceMs?: number;
      log?: FastifyBaseLogger;
      /** What time it is (the app's clock): a file's age is now minus its modification time. */
      clock?: Clock;
    } = {},
  ) {
    this.bootedAt = this.clock.now();
  }

  /** When this server began to boot: temp files last written before it belong to no upload. */
  private readonly bootedAt: Date;

  private get clock(): Clock {
    return this.options.clock ?? systemClock;
  }

  async sweep(graceMs = this.options.graceMs ?? SWEEP_GRACE_MS): Promise<SweepReport> {
    const before = new Date(this.clock.now().getTime() - graceMs);
    const report: SweepReport = { blobs: [], temp: [] };
    for (const kind of BLOB_KINDS) {
      const names = await this.store.sweep(this.db, kind, before, REFERENCES[kind]);
      report.blobs.push(...names.map((name) => ({ kind, name })));
    }
    // While this server answers, an upload may be streaming into any temp file; one still being
    // written keeps a fresh modification time, so only those untouched for the grace go.
    report.temp = await this.removeTempFiles(before);
    return report;
  }

  /**
   * At start, before the server listens: temp files last written before this server began to
   * boot go at once, however young. None can be an upload of this server (it has taken no
   * request yet), and the one that wrote them is gone; an instance that shared the folder
   * (instances keep their own DATA_DIR) would be writing its upload now, after the boot.
   */
  async removeLeftovers(): Promise<string[]> {
    const removed = await this.removeTempFiles(this.bootedAt);
    if (removed.length > 0) {
      this.options.log?.info({ temp: removed.length }, 'removed temp files of interrupted uploads');
    }
    return removed;
  }

  /** Removes the temp files of every temp folder last modified before `before`. */
  private async removeTempFiles(before: Date): Promise<string[]> {
    const removed: string[] = [];
    for (const dir of this.tempDirs) {
      for (const name of await readdir(dir).catch(() => [] as string[])) {
        if (!isTempFile(name)) continue;
        const file = path.join(dir, name);
        const found = await stat(file).catch(() => null);
        if (!found?.isFile() || found.mtimeMs >= before.getTime()) continue;
        await rm(file, { force: true });
        removed.push(file);
      }
    }
    return removed;
  }

  /** Sweeps every `intervalMs` (not at once: boot has enough to do). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.sweep()
        .then((report) => {
          if (report.blobs.length + report.temp.length > 0) {
            this.options.log?.info(
              { blobs: report.blobs.length, temp: report.temp.length },
              'swept unused packages, pictures and temp files',
            );
          }
        })
        .catch((error: unknown) => this.options.log?.warn({ err: error }, 'blob sweep failed'))
        .finally(() => {
          this.running = undefined;
        });
    }, this.options.intervalMs ?? SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}

/**
 * Where uploads write their temp files, under DATA_DIR, whichever backend keeps the blobs: a
 * package's upload in `packages/tmp`, a picture's in `avatars`, and the disk store writes each
 * blob aside (`.<uuid>.part`) in its kind's folder before renaming it into place.
 */
export function blobTempDirs(dataDir: string): string[] {
  return [
    path.join(dataDir, 'packages', 'tmp'),
    path.join(dataDir, 'packages'),
    path.join(dataDir, 'avatars'),
  ];
}
