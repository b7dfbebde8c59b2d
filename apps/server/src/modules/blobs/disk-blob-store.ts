import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  BlobIntegrityError,
  isBlobName,
  type BlobKind,
  type BlobSource,
  type BlobStore,
  type OpenedBlob,
  type Referenced,
} from './blob-store.js';

/** Folders under DATA_DIR, as they were before blobs could live in PostgreSQL. */
const FOLDERS: Record<BlobKind, string> = { package: 'packages', avatar: 'avatars' };

/**
 * Blobs as files under DATA_DIR (the embedded database: one instance, one disk). A file is
 * written aside and renamed into place, so a reader sees the whole of it or nothing; its
 * modification time is its `touched` time.
 */
export class DiskBlobStore implements BlobStore {
  readonly backend = 'disk';

  constructor(private readonly dataDir: string) {}

  folderOf(kind: BlobKind): string {
    return path.join(this.dataDir, FOLDERS[kind]);
  }

  private pathOf(kind: BlobKind, name: string): string {
    if (!isBlobName(kind, name)) throw new Error(`not a ${kind} name: ${name}`);
    return path.join(this.folderOf(kind), name);
  }

  async put(_db: Db, kind: BlobKind, name: string, source: BlobSource): Promise<void> {
    const target = this.pathOf(kind, name);
    const existing = await stat(target).catch(() => null);
    if (existing?.size === source.size) {
      // Renewed so a sweep running now does not take the file the caller is about to use.
      const now = new Date();
      await utimes(target, now, now);
      return;
    }
    await mkdir(this.folderOf(kind), { recursive: true });
    if (source.file) {
      // The caller hashed the file as it wrote it; rename is atomic.
      await rename(source.file, target);
      return;
    }
    const data = source.data ?? Buffer.alloc(0);
    if (createHash('sha256').update(data).digest('hex') !== source.sha256) {
      throw new BlobIntegrityError(`${kind} ${name}: the bytes do not match their sha256`);
    }
    const temp = path.join(this.folderOf(kind), `.${randomUUID()}.part`);
    try {
      await writeFile(temp, data, { flag: 'wx' });
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async open(kind: BlobKind, name: string): Promise<OpenedBlob | null> {
    if (!isBlobName(kind, name)) return null;
    const file = this.pathOf(kind, name);
    const found = await stat(file).catch(() => null);
    if (!found?.isFile()) return null;
    return { stream: createReadStream(file), size: found.size };
  }

  async remove(_db: Db, kind: BlobKind, name: string): Promise<void> {
    await rm(this.pathOf(kind, name), { force: true });
  }

  async names(kind: BlobKind): Promise<string[]> {
    const all = await readdir(this.folderOf(kind)).catch(() => [] as string[]);
    return all.filter((name) => isBlobName(kind, name)).sort();
  }

  async sweep(db: Db, kind: BlobKind, before: Date, referenced: Referenced): Promise<string[]> {
    const removed: string[] = [];
    for (const name of await this.names(kind)) {
      const file = this.pathOf(kind, name);
      if (!(await untouchedSince(file, before))) continue;
      const gone = await db.transaction(async (tx) => {
        await referenced.lock?.(tx, name);
        // Checked again under the lock: an upload of the same bytes may have just used it.
        const result = (await tx.execute(
          sql`select ${referenced.exists(sql`${name}`)} as used`,
        )) as unknown as { rows: { used: boolean }[] };
        if (result.rows[0]?.used || !(await untouchedSince(file, before))) return false;
        await rm(file, { force: true });
        return true;
      });
      if (gone) removed.push(name);
    }
    return removed;
  }
}

async function untouchedSince(file: string, before: Date): Promise<boolean> {
  const found = await stat(file).catch(() => null);
  return found !== null && found.mtimeMs < before.getTime();
}
